import { PERM, paths } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { TIME_GROUPS_NS } from './i18n';

/** SPEC §2 /time-groups, /time-groups/add, /time-groups/edit/:id/:detailId (one range of a group). */

const perm = PERM.timegroup;
export const timeGroupRoutes: RouteDef[] = [
  { path: paths.timeGroup.list, loader: () => import('./TimeGroupListScreen'), permission: perm.view, feature },
  { path: paths.timeGroup.add, loader: () => import('./TimeGroupAddScreen'), permission: perm.create, feature },
  { path: paths.timeGroup.editPattern, loader: () => import('./TimeRangeEditScreen'), permission: perm.edit, feature },
];
export const timeGroupNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: TIME_GROUPS_NS }), paths.timeGroup.list, 'calendar', perm)];
