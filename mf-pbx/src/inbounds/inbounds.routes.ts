import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { INBOUNDS_NS } from './i18n';

/** /inbounds, /inbounds/add, /inbounds/edit/:id (SPEC §2). */
export const inboundPaths = pagePaths('/inbounds');
export const inboundsRoutes: RouteDef[] = areaRoutes(inboundPaths.list, PERM.inbound, () => import('./screens'));
export const inboundsNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: INBOUNDS_NS }), inboundPaths.list, 'call-inbound', PERM.inbound)];
