import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { NOTIFICATIONS_NS } from './i18n';

/** /notifications, /notifications/add, /notifications/edit/:id (SPEC §2). */
export const notificationsRoutes: RouteDef[] = crudRoutes(paths.notification, PERM.notification, () => import('./screens'), feature);
export const notificationsNav = (): NavEntry[] => [
  areaNav(i18n.t('nav', { ns: NOTIFICATIONS_NS }), paths.notification.list, 'megaphone', PERM.notification),
];
