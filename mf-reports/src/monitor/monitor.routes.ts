import { FEATURES, PERM, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

const permission = PERM.monitor.view;
const feature = FEATURES.report;

export const monitorRoutes: RouteDef[] = [
  { path: screens.monitor, loader: () => import('./MonitorScreen').then((m) => ({ default: m.MonitorScreen })), permission, feature },
];

export const monitorNav = (): NavEntry[] => [{ label: i18n.t('nav.monitor', { ns: NS }), path: screens.monitor, icon: 'board', permission, feature }];
