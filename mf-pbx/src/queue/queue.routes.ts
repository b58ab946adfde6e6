import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { QUEUE_NS } from './i18n';

/** /queue, /queue/add, /queue/edit/:id (SPEC §2). */
export const queuePaths = pagePaths('/queue');
export const queueRoutes: RouteDef[] = areaRoutes(queuePaths.list, PERM.queue, () => import('./screens'));
export const queueNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: QUEUE_NS }), queuePaths.list, 'people-queue', PERM.queue)];
