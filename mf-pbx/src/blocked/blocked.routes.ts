import { PERM, type BlockDirection } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, dialogPaths, listRoute } from '../shared/routes';
import { BLOCKED_NS } from './i18n';

/** SPEC §2 /list-of-blocked-incoming-numbers and /list-of-blocked-out-numbers: one screen, two directions. */
export const blockedPaths = {
  in: dialogPaths('/list-of-blocked-incoming-numbers'),
  out: dialogPaths('/list-of-blocked-out-numbers'),
} as const;

const directions: BlockDirection[] = ['in', 'out'];
export const blockedRoutes: RouteDef[] = directions.flatMap((d) =>
  listRoute(blockedPaths[d].list, PERM.blocked, () => import('./screens').then((m) => ({ List: d === 'in' ? m.BlockedIn : m.BlockedOut }))));
export const blockedNav = (): NavEntry[] => directions.map((d) => areaNav(i18n.t('nav', { ns: BLOCKED_NS[d] }), blockedPaths[d].list, 'call-prohibited', PERM.blocked));
