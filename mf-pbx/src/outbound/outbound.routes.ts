import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { OUTBOUND_NS } from './i18n';

/** /outbound (SPEC §2): one route; add and edit open a dialog. */
export const outboundRoutes: RouteDef[] = crudRoutes(paths.outbound, PERM.outbound, () => import('./screens'), feature);
export const outboundNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: OUTBOUND_NS }), paths.outbound.list, 'call-outbound', PERM.outbound)];
