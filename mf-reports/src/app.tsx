import { createRemoteApp } from '@tongdai/ui';
import { historyRoutes } from './history/history.routes';
import { summaryRoutes } from './summaries/summaries.routes';
import { activityRoutes } from './activity/activity.routes';
import { kpiRoutes } from './kpis/kpis.routes';
import { monitorRoutes } from './monitor/monitor.routes';

// The routes, not the manifest: the manifest loads this file lazily.
const lifecycles = createRemoteApp({ name: 'mf_reports', routes: [...historyRoutes, ...summaryRoutes, ...activityRoutes, ...kpiRoutes, ...monitorRoutes] });
export const { bootstrap, mount, unmount } = lifecycles;
