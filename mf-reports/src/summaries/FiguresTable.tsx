import type { ReactNode } from 'react';
import {
  Table, TableBody, TableCell, TableCellLayout, TableHeader, TableHeaderCell, TableRow, Text, Title2, makeStyles, tokens,
} from '@fluentui/react-components';
import { SUMMARY_LABELS as L, formatCsat, formatDuration, formatRate, type CallFigures } from '@tongdai/contracts';
import { EmptyState, ErrorState, LoadingState, rangeHeld, tableWidths, useApiError } from '@tongdai/ui';
import { directionFilter, orgFilters, rangeFilter, resultFilter } from '../history/filters';
import type { SummaryFilters } from './summaries.api';

/** The call-history filters, the same controls (the ones the options endpoint offers nothing for stay hidden). */
const FILTERS = [rangeFilter, directionFilter, resultFilter, ...orgFilters];

export const useSummaryStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  toolbar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '8px', overflowX: 'auto' },
  row: { cursor: 'pointer' },
  sub: { paddingLeft: '24px' },
  muted: { color: tokens.colorNeutralForeground3 },
  count: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});


/** The CSAT cell: the mean score, then how many calls were rated in smaller text ("4,5 (12)"); "—" when none. */
export function CsatFigure({ f }: { f: Pick<CallFigures, 'csat_avg' | 'csat_count'> }) {
  const s = useSummaryStyles();
  if (f.csat_avg === null || f.csat_count === 0) return <span data-testid="fig-csat">—</span>;
  return <span data-testid="fig-csat">{formatCsat(f.csat_avg)} <span className={s.count}>({f.csat_count.toLocaleString('vi-VN')})</span></span>;
}

/** The figure columns every summary shows after its name columns, in order. */
export const FIGURE_HEADERS = [L.calls_in, L.calls_out, L.calls_internal, L.answered, L.missed, L.busy, L.talk, L.avg_talk, L.answer_rate, L.csat];
export function figureCells(f: CallFigures): ReactNode[] {
  return [
    // Strings: a bare 0 would be dropped by the cell layout (an empty cell, not "0").
    String(f.calls_in), String(f.calls_out), String(f.calls_internal),
    <span data-testid="fig-answered">{f.answered}</span>, <span data-testid="fig-missed">{f.missed}</span>, <span data-testid="fig-busy">{f.busy}</span>,
    <span data-testid="fig-talk">{formatDuration(f.talk_sec)}</span>, <span data-testid="fig-avg-talk">{formatDuration(f.avg_talk_sec)}</span>,
    <span data-testid="fig-rate">{formatRate(f.answer_rate)}</span>,
    <CsatFigure f={f} />,
  ];
}

/** One row of a summary table: its cells, opening the row's calls on click (the name cell holds the same link for the keyboard). */
export function FiguresRow({ cells, onOpen, testId, className }: { cells: ReactNode[]; onOpen: () => void; testId: string; className?: string }) {
  const s = useSummaryStyles();
  return (
    <TableRow data-testid={testId} className={s.row} onClick={(e) => { if (!(e.target as HTMLElement).closest('a')) onOpen(); }}>
      {cells.map((c, i) => <TableCell key={i} className={i === 0 ? className : undefined}><TableCellLayout>{c}</TableCellLayout></TableCell>)}
    </TableRow>
  );
}

/** Title, the call-history filters (in the URL, as call history), then the table or its loading/empty/error state. */
export function SummaryPage({ title, testId, filters, setFilter, query, headers, empty, children, below }: {
  title: string; testId: string; filters: SummaryFilters; setFilter: (key: string, v: string) => void;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  headers: string[]; empty: boolean; children: ReactNode; below?: ReactNode;
}) {
  const s = useSummaryStyles();
  const error = useApiError(query.error);
  // A reversed range (typed into the URL) is said beside its fields; nothing was asked, so no table.
  const held = rangeHeld(filters.range);
  return (
    <section className={s.page} data-testid={testId}>
      <Title2 as="h1">{title}</Title2>
      <div className={s.toolbar}>
        {FILTERS.map(({ key, Control }) => <Control key={key} value={filters[key as keyof SummaryFilters]} onChange={(v) => setFilter(key, v)} />)}
      </div>
      {!held && <div className={s.card}>
        {query.isPending ? <LoadingState /> : query.isError ? (
          <ErrorState message={error?.message ?? ''} onRetry={() => void query.refetch()} />
        ) : empty ? <EmptyState message={L.empty} /> : (
          // Each header on two lines at most, however many figures (the card scrolls sideways below that width).
          <Table aria-label={title} data-testid="summary-table" size="small" style={{ minWidth: tableWidths(headers.map((header) => ({ header }))).minWidth }}>
            <TableHeader>
              <TableRow>{headers.map((h) => <TableHeaderCell key={h}><Text weight="semibold">{h}</Text></TableHeaderCell>)}</TableRow>
            </TableHeader>
            <TableBody>{children}</TableBody>
          </Table>
        )}
      </div>}
      {!held && !query.isPending && !query.isError && !empty && below}
    </section>
  );
}
