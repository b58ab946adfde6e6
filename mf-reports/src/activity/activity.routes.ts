import { FEATURES, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';
import { reportScreen } from '../report-screen';

// As call history: no permission on the route, the API decides whose activity a user sees.
const feature = FEATURES.report;

export const activityRoutes: RouteDef[] = [
  { path: screens.activityUserTenant, loader: reportScreen(() => import('./ActivityScreen').then((m) => m.ActivityScreen)), feature },
];

export const activityNav = (): NavEntry[] => [
  { label: i18n.t('nav.activity', { ns: NS }), path: screens.activityUserTenant, icon: 'team', feature },
];
