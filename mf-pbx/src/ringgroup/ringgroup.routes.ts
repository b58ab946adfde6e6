import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { RINGGROUP_NS } from './i18n';

/** /ringgroup, /ringgroup/add, /ringgroup/edit/:id (SPEC §2). */
export const ringGroupPaths = pagePaths('/ringgroup');
export const ringGroupRoutes: RouteDef[] = areaRoutes(ringGroupPaths.list, PERM.ringgroup, () => import('./screens'));
export const ringGroupNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: RINGGROUP_NS }), ringGroupPaths.list, 'people-call', PERM.ringgroup)];
