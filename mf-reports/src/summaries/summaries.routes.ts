import { FEATURES, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';
import { reportScreen } from '../report-screen';

// As call history: no permission on the routes, the API decides whose figures a user sees.
const feature = FEATURES.report;

export const summaryRoutes: RouteDef[] = [
  { path: screens.historyCdrByExten, loader: reportScreen(() => import('./ExtensionSummaryScreen').then((m) => m.ExtensionSummaryScreen)), feature },
  { path: screens.historyByDepartmentTeam, loader: reportScreen(() => import('./DepartmentTeamScreen').then((m) => m.DepartmentTeamScreen)), feature },
];

export const summaryNav = (): NavEntry[] => [
  { label: i18n.t('nav.byExtension', { ns: NS }), path: screens.historyCdrByExten, icon: 'report', feature },
  { label: i18n.t('nav.byDepartmentTeam', { ns: NS }), path: screens.historyByDepartmentTeam, icon: 'team', feature },
];
