import { tenantApi } from '@tongdai/platform';
import type { ListQuery } from '@tongdai/ui';
import { historyParams } from './history.api';

/** The filters of the list on screen (they live in the URL), as the export call takes them. */
function filtersOnScreen(): Record<string, string> {
  const url = new URLSearchParams(window.location.search);
  const query: ListQuery = { page: 1 };
  for (const [k, v] of url) if (v && k !== 'page' && k !== 'dialog') query[k] = v;
  const { page: _page, ...rest } = historyParams(query);
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
}

/** Downloads the CSV of exactly the calls the list is filtered to (the API streams it). */
export async function exportCsv(endpoint: 'reports/call-history/export' | 'reports/success-calls/export', file: string): Promise<void> {
  const blob = await tenantApi().get(endpoint, { searchParams: filtersOnScreen(), timeout: false }).blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${file}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
