import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { NOTIFICATIONS_NS } from './i18n';

/** /notifications, /notifications/add, /notifications/edit/:id (SPEC §2). */
export const notificationPaths = pagePaths('/notifications');
export const notificationsRoutes: RouteDef[] = areaRoutes(notificationPaths.list, PERM.notification, () => import('./screens'));
export const notificationsNav = (): NavEntry[] => [
  areaNav(i18n.t('nav', { ns: NOTIFICATIONS_NS }), notificationPaths.list, 'megaphone', PERM.notification),
];
