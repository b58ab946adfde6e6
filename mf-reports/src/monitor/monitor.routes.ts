import { FEATURES, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

// As call history and user activity: no permission on the route, the API decides whose wall a user
// sees (monitor.view the tenant's; a manager their department's, a leader their team's, an agent
// their own extension, its current call and their queues, ADR 0034).
const feature = FEATURES.report;

export const monitorRoutes: RouteDef[] = [
  { path: screens.monitor, loader: () => import('./MonitorScreen').then((m) => ({ default: m.MonitorScreen })), feature },
];

export const monitorNav = (): NavEntry[] => [{ label: i18n.t('nav.monitor', { ns: NS }), path: screens.monitor, icon: 'board', feature }];
