import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, dialogPaths, listRoute } from '../shared/routes';
import { OUTBOUND_NS } from './i18n';

/** /outbound (SPEC §2): one route; add and edit open a dialog. */
export const outboundPaths = dialogPaths('/outbound');
export const outboundRoutes: RouteDef[] = listRoute(outboundPaths.list, PERM.outbound, () => import('./screens'));
export const outboundNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: OUTBOUND_NS }), outboundPaths.list, 'call-outbound', PERM.outbound)];
