import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { INBOUNDS_NS } from './i18n';

/** /inbounds, /inbounds/add, /inbounds/edit/:id (SPEC §2). */
export const inboundsRoutes: RouteDef[] = crudRoutes(paths.inbound, PERM.inbound, () => import('./screens'), feature);
export const inboundsNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: INBOUNDS_NS }), paths.inbound.list, 'call-inbound', PERM.inbound)];
