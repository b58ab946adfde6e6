import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';
import { historyNav, historyRoutes } from './history/history.routes';
import { summaryNav, summaryRoutes } from './summaries/summaries.routes';
import { activityNav, activityRoutes } from './activity/activity.routes';
import { kpiNav, kpiRoutes } from './kpis/kpis.routes';

/** mf-reports: call history first (issue 13); the summaries and the carrier view follow. */
export default defineRemoteManifest({
  id: 'mf_reports',
  title: i18n.t('area', { ns: NS }),
  routes: [...historyRoutes, ...summaryRoutes, ...activityRoutes, ...kpiRoutes],
  nav: [...historyNav(), ...summaryNav(), ...activityNav(), ...kpiNav()],
  lifecycles: () => import('./app'),
});
