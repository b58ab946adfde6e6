import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';
import { historyNav, historyRoutes } from './history/history.routes';
import { summaryNav, summaryRoutes } from './summaries/summaries.routes';
import { activityNav, activityRoutes } from './activity/activity.routes';
import { kpiNav, kpiRoutes } from './kpis/kpis.routes';
import { monitorNav, monitorRoutes } from './monitor/monitor.routes';

/** mf-reports: the live wall (issue 14), call history and the summaries (issue 13). */
export default defineRemoteManifest({
  id: 'mf_reports',
  title: i18n.t('area', { ns: NS }),
  routes: [...historyRoutes, ...summaryRoutes, ...activityRoutes, ...kpiRoutes, ...monitorRoutes],
  nav: [...monitorNav(), ...historyNav(), ...summaryNav(), ...activityNav(), ...kpiNav()],
  lifecycles: () => import('./app'),
});
