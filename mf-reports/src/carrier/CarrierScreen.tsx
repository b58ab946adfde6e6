import { useQuery } from '@tanstack/react-query';
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Title3, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CARRIER_NAMES, DESTINATION_TYPES, REPORT_DIRECTIONS, type CarrierReportRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { EmptyState, ErrorState, formatDuration, LoadingState, rangeHeld, tableWidths, urlRange, useApiError, useUrlParams } from '@tongdai/ui';
import { NS } from '../i18n';
import { directionFilter, rangeFilter } from '../history/filters';
import { rangeDays } from '../history/history.api';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '16px' },
  filters: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  total: { fontWeight: 600 },
  num: { textAlign: 'right' },
});

/** The table's columns, in order (each header on two lines at most: the card scrolls sideways below their width). */
const COLUMNS = ['hotline', 'direction', 'carrier', 'destination', 'calls', 'answered', 'talk', 'billed'] as const;
const minutes = (seconds: number) => (seconds / 60).toLocaleString('vi-VN', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * /reports/fpt/call-history — the carrier view: calls through each hotline or trunk by carrier
 * (mobile prefix) and destination type, with the minutes billed by the carrier's rule. Filters
 * (range, direction) live in the URL like the history screens'.
 */
export function CarrierScreen() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const [params, setParams] = useUrlParams();
  const range = urlRange(params);
  const direction = params.get('direction') ?? '';
  const set = (key: string, value: string) => setParams((p) => {
    if (key === 'range') ['from', 'to'].forEach((k) => p.delete(k));
    if (value) p.set(key, value); else p.delete(key);
  });
  // A reversed range typed into the URL: said beside the range fields, nothing asked, no table.
  const held = rangeHeld(range);
  const q = useQuery({
    enabled: !held,
    queryKey: ['reports', 'carrier-calls', range, direction],
    queryFn: () =>
      tenantApi()
        .get('reports/carrier-calls', { searchParams: { ...rangeDays(range), ...(direction && { direction }) } })
        .json<{ data: CarrierReportRow[] }>()
        .then((r) => r.data),
  });
  const error = useApiError(q.error);
  const rows = q.data ?? [];
  const hotlines = [...new Set(rows.map((r) => r.hotline))];
  const sum = (rs: CarrierReportRow[], k: 'calls' | 'answered' | 'billsec' | 'billed_seconds') => rs.reduce((n, r) => n + r[k], 0);
  const { Control: Range } = rangeFilter;
  const { Control: Direction } = directionFilter;
  return (
    <div className={s.page} data-testid="carrier-report">
      <Title3 as="h1">{t('carrier.title')}</Title3>
      <div className={s.filters}>
        <Range value={range} onChange={(v) => set('range', v)} />
        <Direction value={direction} onChange={(v) => set('direction', v)} />
      </div>
      {held ? null : q.isLoading ? <LoadingState />
        : error ? <ErrorState message={error.message} />
        : !rows.length ? <EmptyState message={t('carrier.empty')} />
        : (
          <Table aria-label={t('carrier.title')} data-testid="carrier-table" style={{ minWidth: tableWidths(COLUMNS.map((k) => ({ header: t(`carrier.fields.${k}`) }))).minWidth }}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map((k) => <TableHeaderCell key={k}>{t(`carrier.fields.${k}`)}</TableHeaderCell>)}
              </TableRow>
            </TableHeader>
            <TableBody>
              {hotlines.flatMap((hotline) => {
                const group = rows.filter((r) => r.hotline === hotline);
                return [
                  ...group.map((r) => (
                    <TableRow key={`${hotline}|${r.direction}|${r.carrier}|${r.destination}`} data-testid="carrier-row">
                      <TableCell>{hotline || '—'}</TableCell>
                      <TableCell>{REPORT_DIRECTIONS[r.direction]}</TableCell>
                      <TableCell data-testid="carrier-name">{CARRIER_NAMES[r.carrier]}</TableCell>
                      <TableCell data-testid="carrier-destination">{DESTINATION_TYPES[r.destination]}</TableCell>
                      <TableCell className={s.num}>{r.calls}</TableCell>
                      <TableCell className={s.num}>{r.answered}</TableCell>
                      <TableCell className={s.num}>{formatDuration(r.billsec)}</TableCell>
                      <TableCell className={s.num} data-testid="carrier-billed">{minutes(r.billed_seconds)}</TableCell>
                    </TableRow>
                  )),
                  <TableRow key={`${hotline}|total`} className={s.total} data-testid="carrier-hotline-total">
                    <TableCell>{hotline || '—'}</TableCell>
                    <TableCell colSpan={3}>{t('carrier.total')}</TableCell>
                    <TableCell className={s.num}>{sum(group, 'calls')}</TableCell>
                    <TableCell className={s.num}>{sum(group, 'answered')}</TableCell>
                    <TableCell className={s.num}>{formatDuration(sum(group, 'billsec'))}</TableCell>
                    <TableCell className={s.num}>{minutes(sum(group, 'billed_seconds'))}</TableCell>
                  </TableRow>,
                ];
              })}
            </TableBody>
          </Table>
        )}
    </div>
  );
}
