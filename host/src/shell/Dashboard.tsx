import { Body1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { MONITOR_LABELS, PERM } from '@tongdai/contracts';
import { can, platformInstanceId, callBus } from '@tongdai/platform';
import { useLiveMonitor, useSession } from '@tongdai/platform/react';
import { ErrorState, LoadingState, useApiError } from '@tongdai/ui';
import { NS } from '../i18n';
import { useUserInfo } from '../settings/settings.api';
import { DashboardChartCard } from './dashboard/DashboardChartCard';
import { DashboardTiles } from './dashboard/DashboardTiles';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '20px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * What the tenant sees first (issue 14): today's calls, agents online and callers waiting now (the
 * live wall's state: snapshot, then the real-time channel), calls per hour today vs last week.
 * The navigation lists the areas; the dashboard no longer does.
 */
export function Dashboard() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const session = useSession();
  // The role as screens name it (its display name), not the code kept in the session.
  const userInfo = useUserInfo();
  const live = useLiveMonitor();
  const error = useApiError(live.error);
  return (
    <section className={s.page} data-testid="dashboard" data-platform-instance={platformInstanceId} data-bus-id={callBus.id}>
      <div>
        <Title2 as="h1" block>{t('dashboard.hello', { name: session.profile?.fullName })}</Title2>
        <Body1 as="p" block className={s.muted}>
          {t('dashboard.tenant', { name: session.profile?.tenantName, code: session.maDn })} · {t('dashboard.role', { role: userInfo.data?.role_label ?? '…' })}
        </Body1>
      </div>
      {live.isPending ? <LoadingState /> : live.isError ? (
        <ErrorState title={MONITOR_LABELS.loadError} message={error?.message ?? ''} onRetry={() => void live.refetch()} />
      ) : (
        <>
          <DashboardTiles data={live.data} monitor={can(PERM.monitor.view)} />
          <DashboardChartCard callsToday={live.data.today.calls} />
        </>
      )}
    </section>
  );
}
