import { useQuery } from '@tanstack/react-query';
import type { CallReportOptions, One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, rangeDays, type ListQuery } from '@tongdai/ui';

/** ?range= as the kit's date range filter keeps it (a preset name, "" = today, or "from~to"). */
export { rangeDays, RANGE_SEPARATOR } from '@tongdai/ui';

/** The query sent: the URL's with the range turned into days. */
export function historyParams({ range, ...rest }: ListQuery): ListQuery {
  return { ...rest, ...rangeDays(String(range ?? '')) };
}

const resource = (name: string, base: string) =>
  crudResource({ scope: 'reports', name, base, client: tenantApi, listParams: historyParams });
export const callHistoryApi = resource('call-history', 'reports/call-history');
export const successCallsApi = resource('success-calls', 'reports/success-calls');
/** /etelecom/call-history: the same records through the hotlines; no hotline chosen = any of them (`*`). */
export const hotlineCallsApi = crudResource({
  scope: 'reports', name: 'hotline-calls', base: 'reports/call-history', client: tenantApi,
  listParams: (q) => ({ ...historyParams(q), hotline: String(q.hotline ?? '') || '*' }),
});

/** The filter choices the caller may use (an agent: their own extension only). */
export function useHistoryOptions(): CallReportOptions | null {
  const q = useQuery({
    queryKey: ['reports', 'call-history', 'options'],
    queryFn: () => tenantApi().get('reports/call-history/options').json<One<CallReportOptions>>().then((r) => r.data),
    staleTime: 60_000,
  });
  return q.data ?? null;
}
