import { useNavigate } from 'react-router-dom';
import { SUMMARY_LABELS as L, callHistoryHref } from '@tongdai/contracts';
import { AppLink } from '@tongdai/ui';
import { useExtensionSummary, useSummaryFilters } from './summaries.api';
import { FIGURE_HEADERS, FiguresRow, SummaryPage, figureCells } from './FiguresTable';

/** /history-cdr-by-exten: per extension, its calls in the range; a row opens its calls in /call-history. */
export function ExtensionSummaryScreen() {
  const { filters, setFilter } = useSummaryFilters();
  const query = useExtensionSummary(filters);
  const navigate = useNavigate();
  const rows = query.data?.data ?? [];
  return (
    <SummaryPage
      title={L.byExtensionTitle} testId="by-extension" filters={filters} setFilter={setFilter} query={query}
      headers={[L.extension, L.person, L.calls, ...FIGURE_HEADERS]} empty={rows.length === 0}
    >
      {rows.map((r) => {
        const href = callHistoryHref({ ...filters, extension: r.extension });
        return (
          <FiguresRow
            key={r.extension} testId="summary-row" onOpen={() => navigate(href)}
            cells={[<AppLink to={href} testId="summary-extension">{r.extension}</AppLink>, r.full_name ?? "—", <span data-testid="fig-calls">{r.calls}</span>, ...figureCells(r)]}
          />
        );
      })}
    </SummaryPage>
  );
}
