import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { TIME_GROUPS_NS } from './i18n';

/** SPEC §2 /time-groups, /time-groups/add, /time-groups/edit/:id/:detailId (one range of a group). */
export const timeGroupPaths = {
  list: () => '/time-groups',
  add: () => '/time-groups/add',
  editRange: (id: number | string, detailId: number | string) => `/time-groups/edit/${id}/${detailId}`,
};

const perm = PERM.timegroup;
export const timeGroupRoutes: RouteDef[] = [
  { path: timeGroupPaths.list(), loader: () => import('./TimeGroupListScreen'), permission: perm.view, feature },
  { path: timeGroupPaths.add(), loader: () => import('./TimeGroupAddScreen'), permission: perm.create, feature },
  { path: timeGroupPaths.editRange(':id', ':detailId'), loader: () => import('./TimeRangeEditScreen'), permission: perm.edit, feature },
];
export const timeGroupNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: TIME_GROUPS_NS }), timeGroupPaths.list(), 'calendar', perm)];
