import { Suspense, lazy } from 'react';
import { Card, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Title2, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { KPI_MEASURES, KPI_PERIODS } from '@tongdai/contracts';
import { EmptyState, ErrorState, LoadingState, useApiError } from '@tongdai/ui';
import { Progress } from './kpis.entity';
import { useKpisByDepartment } from './kpis.api';
import { KPI_NS } from './kpis.i18n';

// The charts library comes with this screen only (its own chunk), as on the department/team summary.
const KpiChart = lazy(() => import('./KpiChart'));

const useStyles = makeStyles({ page: { display: 'flex', flexDirection: 'column', gap: '16px' }, card: { padding: '0 8px 8px', overflowX: 'auto' } });

/** /kpi-by-department: each department against the KPIs assigned to it, as a chart and a table. */
export function KpiByDepartmentScreen() {
  const s = useStyles();
  const { t } = useTranslation(KPI_NS);
  const query = useKpisByDepartment();
  const error = useApiError(query.error);
  const data = query.data?.data ?? [];
  return (
    <section className={s.page} data-testid="kpi-by-department">
      <Title2 as="h1">{t('byDepartmentTitle')}</Title2>
      {query.isPending ? <LoadingState />
        : query.isError ? <ErrorState message={error?.message ?? ''} onRetry={() => void query.refetch()} />
        : data.length === 0 ? <EmptyState message={t('byDepartmentEmpty')} />
        : (
          <>
            <Suspense fallback={<LoadingState />}><KpiChart data={data} title={t('chartTitle')} /></Suspense>
            <Card className={s.card}>
              <Table aria-label={t('byDepartmentTitle')}>
                <TableHeader>
                  <TableRow>
                    {['assignee', 'name', 'measure', 'period', 'progress'].map((k) => <TableHeaderCell key={k}>{t(k === 'assignee' ? 'assigneeTypes.department' : `fields.${k}`)}</TableHeaderCell>)}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.flatMap((d) => d.kpis.map((k, i) => (
                    <TableRow key={k.id} data-testid="kpi-department-row">
                      <TableCell>{i === 0 ? d.department : ''}</TableCell>
                      <TableCell>{k.name}</TableCell>
                      <TableCell>{KPI_MEASURES[k.measure].label}</TableCell>
                      <TableCell>{KPI_PERIODS[k.period]}</TableCell>
                      <TableCell><Progress kpi={k} /></TableCell>
                    </TableRow>
                  )))}
                </TableBody>
              </Table>
            </Card>
          </>
        )}
    </section>
  );
}
