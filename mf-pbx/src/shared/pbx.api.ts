import { useMemo } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DESTINATION_LABELS, PBX_MSG, destinationOptions,
  type Destination, type DestinationOption, type DestinationValue, type DestinationsMap, type ImportInboundResult, type Paged, type PbxPage, type PbxResource,
} from '@tongdai/contracts';
import { pbxApi, session } from '@tongdai/platform';

/**
 * The voice PBX partner API (/pbx) for every mf-pbx screen: one generic client per resource
 * (PBX_RESOURCES in @tongdai/contracts). Every call names the tenant as CodeCompany; the API
 * checks it against the token.
 */

export const codeCompany = (): string => session.get().maDn ?? '';
const withTenant = (params: Record<string, string | number> = {}) => ({ ...params, CodeCompany: codeCompany() });
const base = (resource: PbxResource) => `partner/${resource}`;

/**
 * Where a resource's calls go. Generic: /partner/{r} and /partner/{r}/{id}; an area may use the
 * exact SPEC §7 paths instead (inbound routes do), which the API serves as aliases.
 */
export interface PbxEndpoints {
  resource: PbxResource;
  list: () => string;
  /** The detail call: by id, or by the key the SPEC path names (a number's digits). */
  one: (key: number | string) => string;
  create: () => string;
  update: (id: number) => string;
  remove: (id: number) => string;
}

export const genericEndpoints = (resource: PbxResource): PbxEndpoints => ({
  resource,
  list: () => base(resource),
  one: (id) => `${base(resource)}/${id}`,
  create: () => base(resource),
  update: (id) => `${base(resource)}/${id}`,
  remove: (id) => `${base(resource)}/${id}`,
});

const endpointsOf = (r: PbxResource | PbxEndpoints): PbxEndpoints => (typeof r === 'string' ? genericEndpoints(r) : r);

export interface PbxListParams {
  page: number;
  search?: string;
  filter_action?: string;
}

/** The partner API pages as { data, total, page, page_size }; the shared list page reads Paged. */
export const toPaged = <T>(p: PbxPage<T>): Paged<T> => ({ data: p.data, meta: { page: p.page, per_page: p.page_size, total: p.total } });

/** One page of a resource, shaped for ListPage (`Paged`). */
export function usePbxList<T>(resource: PbxResource | PbxEndpoints, q: PbxListParams) {
  const ep = endpointsOf(resource);
  return useQuery({
    queryKey: ['pbx', ep.resource, 'list', q],
    queryFn: () => {
      const params: Record<string, string | number> = { page: q.page };
      if (q.search) params.search = q.search;
      if (q.filter_action) params.filter_action = q.filter_action;
      return pbxApi().get(ep.list(), { searchParams: withTenant(params) }).json<PbxPage<T>>();
    },
    select: toPaged<T>,
    placeholderData: keepPreviousData,
  });
}

/** Every row (dataType=all): pickers and selects. */
export function usePbxAll<T>(resource: PbxResource, enabled = true) {
  return useQuery({
    queryKey: ['pbx', resource, 'all'],
    queryFn: () => pbxApi().get(base(resource), { searchParams: withTenant({ dataType: 'all' }) }).json<{ data: T[] }>().then((r) => r.data),
    enabled,
  });
}

export function usePbxOne<T>(resource: PbxResource | PbxEndpoints, key: number | string | null) {
  const ep = endpointsOf(resource);
  return useQuery({
    queryKey: ['pbx', ep.resource, 'one', key],
    queryFn: () => pbxApi().get(ep.one(key as number | string), { searchParams: withTenant() }).json<{ data: T }>().then((r) => r.data),
    enabled: key !== null,
  });
}

/** Create (id null) or update; every PBX query is refreshed after (destinations name these rows). */
export function useSavePbx<I, T>(resource: PbxResource | PbxEndpoints, id: number | null) {
  const qc = useQueryClient();
  const ep = endpointsOf(resource);
  return useMutation({
    mutationFn: (input: I) =>
      (id === null
        ? pbxApi().post(ep.create(), { json: input, searchParams: withTenant() })
        : pbxApi().put(ep.update(id), { json: input, searchParams: withTenant() })
      )
        .json<{ data: T }>()
        .then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['pbx'] }),
  });
}

export function useDeletePbx(resource: PbxResource | PbxEndpoints) {
  const qc = useQueryClient();
  const ep = endpointsOf(resource);
  return useMutation({
    mutationFn: (id: number) => pbxApi().delete(ep.remove(id), { searchParams: withTenant() }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['pbx'] }),
  });
}

/** POST /importInbound (SPEC §7, multipart field `file`): the API answers what it imported and what it refused. */
export function useImportInbound() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return pbxApi().post('importInbound', { body, searchParams: withTenant(), timeout: 120_000 }).json<ImportInboundResult | { data: ImportInboundResult }>()
        .then((r) => ('data' in r ? r.data : r));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['pbx'] }),
  });
}

/** SPEC §7/§8: a non-200 answer of the destinations call raises an error carrying the status. */
export class DestinationsError extends Error {
  constructor(readonly status: number) {
    super(PBX_MSG.destinationsFailed(status));
    this.name = 'DestinationsError';
  }
}

export async function fetchDestinations(): Promise<DestinationOption[]> {
  const res = await pbxApi().get('partner/destinations', { searchParams: withTenant(), throwHttpErrors: false });
  if (res.status !== 200) throw new DestinationsError(res.status);
  const body = (await res.json()) as { data: DestinationsMap };
  return destinationOptions(body.data);
}

/** The tenant's destinations as name/value pairs (value "type:target"). */
export function useDestinations() {
  return useQuery({ queryKey: ['pbx', 'destinations'], queryFn: fetchDestinations, retry: false });
}

export interface TargetOption {
  value: string;
  label: string;
}

/** The objects of one destination type as select options (target → its name without the type label). */
export function targetsOf(options: readonly DestinationOption[], type: DestinationValue | ''): TargetOption[] {
  if (!type) return [];
  const prefix = DESTINATION_LABELS[type].length + 2;
  return options.filter((o) => o.type === type).map((o) => ({ value: o.value.slice(type.length + 1), label: o.name.slice(prefix) }));
}

/** Label of a destination in lists: "Nhóm đổ chuông: Kinh doanh"; null is `none` (hang up). */
export function describeDestination(options: readonly DestinationOption[], d: Destination | null | undefined, none: string): string {
  if (!d) return none;
  const found = options.find((o) => o.value === `${d.type}:${d.target}`);
  if (found) return found.name;
  return `${DESTINATION_LABELS[d.type] ?? d.type}: ${d.target}`;
}

/** `describeDestination` bound to the tenant's destinations. */
export function useDescribeDestination(none: string) {
  const { data } = useDestinations();
  return useMemo(() => (d: Destination | null | undefined) => describeDestination(data ?? [], d, none), [data, none]);
}
