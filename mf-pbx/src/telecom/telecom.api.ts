import { useQuery } from '@tanstack/react-query';
import { TELECOM_API, type Hotline, type Paged, type Switchboard } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource } from '@tongdai/ui';

/**
 * The telecom resources on the tenant surface (TELECOM_API): switchboards and hotlines. A write
 * refreshes the PBX lists too: a hotline is one of the tenant's numbers (/numbers, inbound routes).
 */
const refreshes = ['telecom', 'pbx'];

/** How often a list showing live status (registration, channels in use) is fetched again. */
export const LIVE_REFRESH_MS = 5_000;

export const switchboardResource = crudResource({
  scope: 'telecom', name: 'switchboard', base: TELECOM_API.switchboards, client: tenantApi, refreshes, refetchInterval: LIVE_REFRESH_MS,
});
export const hotlineResource = crudResource({
  scope: 'telecom', name: 'hotline', base: TELECOM_API.hotlines, client: tenantApi, refreshes, refetchInterval: LIVE_REFRESH_MS,
});

/** The telecom lists' largest page (TelecomListQuerySchema): a tenant's trunks and hotlines fit in it. */
const ALL = 100;
const all = <T,>(path: string) => () =>
  tenantApi().get(path, { searchParams: { page: 1, per_page: ALL } }).json<Paged<T>>().then((r) => r.data);

/** Every switchboard of the tenant (selects of the hotline and outbound rule forms). */
export function useSwitchboardsAll() {
  return useQuery({ queryKey: ['telecom', 'switchboard', 'all'], queryFn: all<Switchboard>(TELECOM_API.switchboards) });
}

/** Every hotline of the tenant (the caller id select). */
export function useHotlinesAll() {
  return useQuery({ queryKey: ['telecom', 'hotline', 'all'], queryFn: all<Hotline>(TELECOM_API.hotlines) });
}
