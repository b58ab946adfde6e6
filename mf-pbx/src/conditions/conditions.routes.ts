import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { CONDITIONS_NS } from './i18n';

/** /conditions, /conditions/add, /conditions/edit/:id (SPEC §2). */
export const conditionRoutes: RouteDef[] = crudRoutes(paths.condition, PERM.timecondition, () => import('./screens'), feature);
export const conditionNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: CONDITIONS_NS }), paths.condition.list, 'clock', PERM.timecondition)];
