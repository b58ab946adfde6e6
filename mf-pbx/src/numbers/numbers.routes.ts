import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { NUMBERS_NS } from './i18n';

/** /numbers (SPEC §2): one route; add and edit open a dialog. */
export const numbersRoutes: RouteDef[] = crudRoutes(paths.number, PERM.number, () => import('./screens'), feature);
export const numbersNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: NUMBERS_NS }), paths.number.list, 'dialpad', PERM.number)];
