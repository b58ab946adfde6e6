import { MessageBar, MessageBarBody, makeStyles } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { REPORTS_API, reportLagWarning, type ReportFreshness } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const useStyles = makeStyles({ bar: { marginBottom: '16px' } });

export const REPORT_FRESHNESS_KEY = ['reports', 'freshness'] as const;

/**
 * How far the reports trail the primary (GET reports/freshness, issue 42). Asked again every 10 s
 * only while a replica is configured (a deployment without one never has lag, and an API that
 * predates the endpoint is not asked again).
 */
export function useReportFreshness() {
  return useQuery({
    queryKey: REPORT_FRESHNESS_KEY,
    queryFn: () => tenantApi().get(REPORTS_API.freshness).json<{ data: ReportFreshness }>().then((r) => r.data),
    staleTime: 5_000,
    refetchInterval: (q) => (q.state.data && q.state.data.source !== 'primary' ? 10_000 : false),
    retry: false,
  });
}

/**
 * The warning over a report (and the dashboard's chart) while its figures trail the system by more
 * than REPORT_LAG_WARN_SECONDS (a streaming replica behind, ADR 0058); nothing otherwise.
 */
export function ReportLagNotice() {
  const s = useStyles();
  const warning = reportLagWarning(useReportFreshness().data);
  if (!warning) return null;
  return (
    <MessageBar intent="warning" className={s.bar} data-testid="report-lag">
      <MessageBarBody>{warning}</MessageBarBody>
    </MessageBar>
  );
}
