import { FEATURES, PERM, paths, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { KPI_NS } from './kpis.i18n';
import { reportScreen } from '../report-screen';

// Like the reports: no permission on the lists, the API shows an agent their own KPIs; adding needs kpi.create.
const feature = FEATURES.report;

export const kpiRoutes: RouteDef[] = [
  { path: paths.kpi.list, loader: reportScreen(() => import('./screens').then((m) => m.KpiListScreen)), feature },
  { path: paths.kpi.add, loader: () => import('./screens').then((m) => ({ default: m.KpiAddScreen })), feature, permission: PERM.kpi.create },
  { path: screens.kpiByDepartment, loader: reportScreen(() => import('./KpiByDepartmentScreen').then((m) => m.KpiByDepartmentScreen)), feature },
];

export const kpiNav = (): NavEntry[] => [
  { label: i18n.t('nav', { ns: KPI_NS }), path: paths.kpi.list, icon: 'report', feature },
  { label: i18n.t('navByDepartment', { ns: KPI_NS }), path: screens.kpiByDepartment, icon: 'team', feature },
];
