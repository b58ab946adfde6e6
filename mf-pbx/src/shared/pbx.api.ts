import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DESTINATION_LABELS, PBX_MSG, destinationOptions,
  type Destination, type DestinationOption, type DestinationValue, type DestinationsMap, type ImportInboundResult, type Paged, type PbxPage, type PbxResource,
} from '@tongdai/contracts';
import { pbxApi, session } from '@tongdai/platform';

/**
 * The voice PBX partner API (/pbx) beyond the kit's CRUD (shared/entity.ts pbxResource): all rows,
 * the inbound import, destinations. Every call names the tenant as CodeCompany; the API checks it
 * against the token.
 */

export const codeCompany = (): string => session.get().maDn ?? '';
const withTenant = (params: Record<string, string | number> = {}) => ({ ...params, CodeCompany: codeCompany() });
const base = (resource: PbxResource) => `partner/${resource}`;

/** The partner API pages as { data, total, page, page_size }; the kit's list reads Paged. */
export const toPaged = <T>(p: PbxPage<T>): Paged<T> => ({ data: p.data, meta: { page: p.page, per_page: p.page_size, total: p.total } });

/** Every row (dataType=all): pickers and selects. */
export function usePbxAll<T>(resource: PbxResource, enabled = true) {
  return useQuery({
    queryKey: ['pbx', resource, 'all'],
    queryFn: () => pbxApi().get(base(resource), { searchParams: withTenant({ dataType: 'all' }) }).json<{ data: T[] }>().then((r) => r.data),
    enabled,
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
