import { useQuery } from '@tanstack/react-query';
import { presetRange, type CallReportOptions, type DatePreset, type One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, type ListQuery } from '@tongdai/ui';

/** ?range= in the URL: a preset name ("" = today), or a custom "YYYY-MM-DD~YYYY-MM-DD". */
export const RANGE_SEPARATOR = '~';

/** The days a ?range= value covers, as the API's from/to (a preset is read on today's Vietnam date). */
export function rangeDays(range: string): { from?: string; to?: string } {
  if (range.includes(RANGE_SEPARATOR)) {
    const [from, to] = range.split(RANGE_SEPARATOR);
    return { ...(from && { from }), ...(to && { to }) };
  }
  return presetRange((range || 'today') as DatePreset) ?? {};
}

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
