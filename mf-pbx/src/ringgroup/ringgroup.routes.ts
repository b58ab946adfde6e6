import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { RINGGROUP_NS } from './i18n';

/** /ringgroup, /ringgroup/add, /ringgroup/edit/:id (SPEC §2). */
export const ringGroupRoutes: RouteDef[] = crudRoutes(paths.ringGroup, PERM.ringgroup, () => import('./screens'), feature);
export const ringGroupNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: RINGGROUP_NS }), paths.ringGroup.list, 'people-call', PERM.ringgroup)];
