import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, dialogPaths, listRoute } from '../shared/routes';
import { NUMBERS_NS } from './i18n';

/** /numbers (SPEC §2): one route; add and edit open a dialog. */
export const numberPaths = dialogPaths('/numbers');
export const numbersRoutes: RouteDef[] = listRoute(numberPaths.list, PERM.number, () => import('./screens'));
export const numbersNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: NUMBERS_NS }), numberPaths.list, 'dialpad', PERM.number)];
