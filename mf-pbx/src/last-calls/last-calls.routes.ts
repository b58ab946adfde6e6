import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, dialogPaths, listRoute } from '../shared/routes';
import { LASTCALLS_NS } from './i18n';

/** /last-calls (SPEC §2): one route; add and edit open a dialog. */
export const lastCallPaths = dialogPaths('/last-calls');
export const lastCallsRoutes: RouteDef[] = listRoute(lastCallPaths.list, PERM.lastcall, () => import('./screens'));
export const lastCallsNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: LASTCALLS_NS }), lastCallPaths.list, 'history', PERM.lastcall)];
