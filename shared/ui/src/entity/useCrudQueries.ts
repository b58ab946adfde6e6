import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '@tongdai/contracts';
import type { tenantApi } from '@tongdai/platform';

type Http = ReturnType<typeof tenantApi>;

/** Where a resource's calls go. */
export interface CrudEndpoints {
  list: () => string;
  /** The detail call: by id, or by the key an entity's `detailKey` names (a number's digits, SPEC §7). */
  one: (key: number | string) => string;
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
  /** The list's query as sent, from the one in the URL (e.g. a date preset → from/to). */
  listParams?: (query: ListQuery) => ListQuery;
  /** The list answer as `Paged` (default: it already is one). */
  toPaged?: (body: never) => Paged<unknown>;
  /** Query-key roots refreshed after a write (default: the scope); other lists name these rows. */
  refreshes?: string[];
  /** A live list (a status the server changes): refetched every so many milliseconds while shown. */
  refetchInterval?: number;
}

/** `/base` and `/base/{id}`; `endpoints` overrides some (an area using the exact SPEC §7 paths). */
export function crudResource(r: Omit<CrudResource, 'endpoints'> & { base: string; endpoints?: Partial<CrudEndpoints> }): CrudResource {
  const one = (key: number | string) => `${r.base}/${key}`;
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
 * `opts.list` is given, `one` when `opts.id` is set (an id, or a `detailKey` string), and the `save`
 * (create when it is null, else update by the id — read from the loaded row when opened by key) and `remove` mutations. A write refreshes every query of the resource's `refreshes`.
 */
export function useCrudQueries<T>(resource: CrudResource, opts: { list?: ListQuery; id?: number | string | null } = {}) {
  const qc = useQueryClient();
  const { scope, name, endpoints: ep } = resource;
  const http = () => resource.client();
  const params = (extra: Record<string, string | number | undefined> = {}) => {
    const out: Record<string, string | number> = {};
    for (const [k, x] of Object.entries(extra)) if (x !== undefined && x !== '') out[k] = x;
    return { ...out, ...resource.searchParams?.() };
  };
  const key = opts.id ?? null;
  // A fetch already on its way may have read the rows before this write: cancel it first, or the
  // refresh joins it (a query with no data yet, e.g. a search just typed, reuses its in-flight
  // fetch) and the list keeps a row just deleted.
  const refresh = async () => {
    const roots = resource.refreshes ?? [scope];
    await Promise.all(roots.map((k) => qc.cancelQueries({ queryKey: [k] })));
    await Promise.all(roots.map((k) => qc.invalidateQueries({ queryKey: [k] })));
  };

  const list = useQuery({
    queryKey: [scope, name, 'list', opts.list],
    queryFn: () => http().get(ep.list(), { searchParams: params(opts.list && resource.listParams ? resource.listParams(opts.list) : opts.list) }).json<unknown>(),
    select: (body: unknown) => (resource.toPaged ? resource.toPaged(body as never) : body) as Paged<T>,
    placeholderData: keepPreviousData,
    enabled: opts.list !== undefined,
    refetchInterval: resource.refetchInterval,
  });
  const one = useQuery({
    queryKey: [scope, name, 'one', key],
    queryFn: () => http().get(ep.one(key as number | string), { searchParams: params() }).json<{ data: T }>().then((r) => r.data),
    enabled: key !== null,
  });
  // Writes go by id; a row opened by another key (a number's digits) names its id once loaded.
  const id = typeof key === 'string' ? ((one.data as { id?: number } | undefined)?.id ?? null) : key;
  const save = useMutation({
    mutationFn: (input: unknown) => {
      if (key !== null && id === null) return Promise.reject(new Error('the row to update is not loaded yet'));
      return (id === null ? http().post(ep.create(), { json: input, searchParams: params() }) : http().put(ep.update(id), { json: input, searchParams: params() }))
        .json<{ data: T }>()
        .then((r) => r.data);
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (rowId: number) => http().delete(ep.remove(rowId), { searchParams: params() }),
    onSuccess: refresh,
  });
  return { list, one, save, remove };
}
