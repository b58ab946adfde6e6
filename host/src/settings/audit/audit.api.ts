import { useQuery } from '@tanstack/react-query';
import { AUDIT_API, type AuditOptions, type One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, rangeDays, saveBlob, type ExportFormat, type ListQuery } from '@tongdai/ui';

/** The query sent: the URL's, with ?range= turned into Vietnam days (no range: the whole log). */
export function auditParams({ range, ...rest }: ListQuery): ListQuery {
  return { ...rest, ...rangeDays(String(range ?? ''), 'all') };
}

/** GET audit-log: newest first, 10 a page, the filters of the screen. */
export const auditApi = crudResource({ scope: 'settings', name: 'audit-log', base: AUDIT_API.list, client: tenantApi, listParams: auditParams });

/** The accounts that appear in the log (the user filter's choices). */
export function useAuditOptions(): AuditOptions | null {
  const q = useQuery({
    queryKey: ['settings', 'audit-log', 'options'],
    queryFn: () => tenantApi().get(AUDIT_API.options).json<One<AuditOptions>>().then((r) => r.data),
    staleTime: 60_000,
  });
  return q.data ?? null;
}

/** The filters on screen (they live in the URL), as the export takes them: the lines of the list, every page. */
export function filtersOnScreen(search = window.location.search): Record<string, string> {
  const query: ListQuery = { page: 1 };
  for (const [k, v] of new URLSearchParams(search)) if (v && k !== 'page' && k !== 'entry') query[k] = v;
  const { page: _page, ...rest } = auditParams(query);
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
}

/** Downloads what the filters on screen match, as CSV or XLSX (audit.export). */
export async function exportAudit(format: ExportFormat = 'csv'): Promise<void> {
  const blob = await tenantApi().get(AUDIT_API.export(format), { searchParams: filtersOnScreen(), timeout: false }).blob();
  saveBlob(blob, `nhat-ky-thay-doi.${format}`);
}
