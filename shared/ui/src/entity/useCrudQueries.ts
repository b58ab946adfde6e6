import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '@tongdai/contracts';
import type { tenantApi } from '@tongdai/platform';

type Http = ReturnType<typeof tenantApi>;

/** Where a resource's calls go. */
export interface CrudEndpoints {
  list: () => string;
  one: (id: number) => string;
  create: () => string;
  update: (id: number) => string;
  remove: (id: number) => string;
}

/** One REST resource of an API surface, as useCrudQueries calls it. */
export interface CrudResource {
  /** Query-key root of the area ("pbx", "org"): keys are [scope, name, …]. */
  scope: string;
  name: string;
  client: () => Http;
  endpoints: CrudEndpoints;
  /** Added to every call (e.g. the partner API's CodeCompany). */
  searchParams?: () => Record<string, string | number>;
  /** The list answer as `Paged` (default: it already is one). */
  toPaged?: (body: never) => Paged<unknown>;
  /** Query-key roots refreshed after a write (default: the scope); other lists name these rows. */
  refreshes?: string[];
}

/** `/base` and `/base/{id}`; `endpoints` overrides some (an area using the exact SPEC §7 paths). */
export function crudResource(r: Omit<CrudResource, 'endpoints'> & { base: string; endpoints?: Partial<CrudEndpoints> }): CrudResource {
  const one = (id: number) => `${r.base}/${id}`;
  return { ...r, endpoints: { list: () => r.base, one, create: () => r.base, update: one, remove: one, ...r.endpoints } };
}

export interface ListQuery {
  page: number;
  search?: string;
  /** Filters by query parameter; empty ones are not sent. */
  [filter: string]: string | number | undefined;
}

/**
 * The React Query hooks of one resource, the one way every screen fetches and writes: `list` when
 * `opts.list` is given, `one` when `opts.id` is a number, and the `save` (create when id is null,
 * else update) and `remove` mutations. A write refreshes every query of the resource's `refreshes`.
 */
export function useCrudQueries<T>(resource: CrudResource, opts: { list?: ListQuery; id?: number | null } = {}) {
  const qc = useQueryClient();
  const { scope, name, endpoints: ep } = resource;
  const http = () => resource.client();
  const params = (extra: Record<string, string | number | undefined> = {}) => {
    const out: Record<string, string | number> = {};
    for (const [k, x] of Object.entries(extra)) if (x !== undefined && x !== '') out[k] = x;
    return { ...out, ...resource.searchParams?.() };
  };
  const id = opts.id ?? null;
  const refresh = () => Promise.all((resource.refreshes ?? [scope]).map((k) => qc.invalidateQueries({ queryKey: [k] })));

  const list = useQuery({
    queryKey: [scope, name, 'list', opts.list],
    queryFn: () => http().get(ep.list(), { searchParams: params(opts.list) }).json<unknown>(),
    select: (body: unknown) => (resource.toPaged ? resource.toPaged(body as never) : body) as Paged<T>,
    placeholderData: keepPreviousData,
    enabled: opts.list !== undefined,
  });
  const one = useQuery({
    queryKey: [scope, name, 'one', id],
    queryFn: () => http().get(ep.one(id as number), { searchParams: params() }).json<{ data: T }>().then((r) => r.data),
    enabled: id !== null,
  });
  const save = useMutation({
    mutationFn: (input: unknown) =>
      (id === null ? http().post(ep.create(), { json: input, searchParams: params() }) : http().put(ep.update(id), { json: input, searchParams: params() }))
        .json<{ data: T }>()
        .then((r) => r.data),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (rowId: number) => http().delete(ep.remove(rowId), { searchParams: params() }),
    onSuccess: refresh,
  });
  return { list, one, save, remove };
}
