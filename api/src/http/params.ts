import * as v from 'valibot';

/** Path id: a positive int4; anything else is "not found" (0), never a database error. */
const Id = v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number));

/** The id a raw path segment names, or 0 (no row has it) when it is not a positive int4. */
export const parseId = (raw: unknown): number => {
  const r = v.safeParse(Id, raw);
  return r.success ? r.output : 0;
};

/** The id under `key` (default `id`) in a route's params. */
export const idOf = (params: unknown, key = 'id'): number => parseId((params as Record<string, unknown> | null)?.[key]);
