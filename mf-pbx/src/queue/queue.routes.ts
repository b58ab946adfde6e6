import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { QUEUE_NS } from './i18n';

/** /queue, /queue/add, /queue/edit/:id (SPEC §2). */
export const queueRoutes: RouteDef[] = crudRoutes(paths.queue, PERM.queue, () => import('./screens'), feature);
export const queueNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: QUEUE_NS }), paths.queue.list, 'people-queue', PERM.queue)];
