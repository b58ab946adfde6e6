import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { CONDITIONS_NS } from './i18n';

/** /conditions, /conditions/add, /conditions/edit/:id (SPEC §2). */
export const conditionPaths = pagePaths('/conditions');
export const conditionRoutes: RouteDef[] = areaRoutes(conditionPaths.list, PERM.timecondition, () => import('./screens'));
export const conditionNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: CONDITIONS_NS }), conditionPaths.list, 'clock', PERM.timecondition)];
