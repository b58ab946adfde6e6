import { Suspense, lazy } from 'react';
import { Card, CardHeader, Subtitle2 } from '@fluentui/react-components';
import { DASHBOARD_LABELS as L, routes } from '@tongdai/contracts';
import { AppLink, EmptyState, ErrorState, LoadingState, ReportLagNotice, useApiError } from '@tongdai/ui';
import { hourlyComparison, useHourComparison } from './dashboard.api';

// The charts library in its own chunk, fetched once the dashboard has its figures (never with the shell).
const HourChart = lazy(() => import('./HourChart'));

/**
 * Calls per hour today vs the same weekday last week, from the read model (a replica with
 * REPORTS_DATABASE_URL: its lag warned as on the reports, ADR 0058); opens the department/team report.
 */
export function DashboardChartCard({ callsToday }: { callsToday: number }) {
  const query = useHourComparison(callsToday);
  const error = useApiError(query.error);
  const series = query.data ? hourlyComparison(query.data.today, query.data.last_week) : null;
  const empty = series && ![...series.today, ...series.lastWeek].some((p) => p.y > 0);
  return (
    <Card data-testid="dash-chart">
      <CardHeader header={<Subtitle2>{L.perHour}</Subtitle2>} />
      <ReportLagNotice />
      {error ? <ErrorState message={error.message} onRetry={() => void query.refetch()} /> : !series ? <LoadingState /> : empty ? (
        <EmptyState message={L.noChart} />
      ) : (
        <Suspense fallback={<LoadingState />}><HourChart today={series.today} lastWeek={series.lastWeek} /></Suspense>
      )}
      <AppLink to={routes.historyByDepartmentTeam()} testId="dash-chart-link">{L.openReport}</AppLink>
    </Card>
  );
}
