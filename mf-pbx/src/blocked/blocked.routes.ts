import { PERM, paths, type BlockDirection } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { BLOCKED_NS } from './i18n';

/** SPEC §2 /list-of-blocked-incoming-numbers and /list-of-blocked-out-numbers: one screen, two directions. */
const blockedPaths = { in: paths.blockedIn, out: paths.blockedOut } as const;

const directions: BlockDirection[] = ['in', 'out'];
export const blockedRoutes: RouteDef[] = directions.flatMap((d) =>
  crudRoutes(blockedPaths[d], PERM.blocked, () => import('./screens').then((m) => ({ List: d === 'in' ? m.BlockedIn : m.BlockedOut })), feature));
export const blockedNav = (): NavEntry[] => directions.map((d) => areaNav(i18n.t('nav', { ns: BLOCKED_NS[d] }), blockedPaths[d].list, 'call-prohibited', PERM.blocked));
