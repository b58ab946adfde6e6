import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { authOf } from '../../http/guards';
import type { Caller } from './pbx.service';

/** Path id: a positive int4; anything else is "not found", never a database error. */
const Id = v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number));
export const parseId = (raw: unknown): number => {
  const r = v.safeParse(Id, raw);
  return r.success ? r.output : 0;
};
export const idOf = (params: unknown, key = 'id'): number => parseId((params as Record<string, unknown>)[key]);

export const caller = (request: FastifyRequest): Caller => {
  const auth = authOf(request);
  return { tenantId: auth.tenantId, maDn: auth.maDn };
};

export const pbxSchema = (tag: string) => ({ tags: [`pbx: ${tag}`], security: [{ bearer: [] }] });
