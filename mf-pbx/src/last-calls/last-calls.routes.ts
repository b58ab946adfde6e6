import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { LASTCALLS_NS } from './i18n';

/** /last-calls (SPEC §2): one route; add and edit open a dialog. */
export const lastCallsRoutes: RouteDef[] = crudRoutes(paths.lastCall, PERM.lastcall, () => import('./screens'), feature);
export const lastCallsNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: LASTCALLS_NS }), paths.lastCall.list, 'history', PERM.lastcall)];
