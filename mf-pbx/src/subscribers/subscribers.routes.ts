import { FEATURES, PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { SUBSCRIBERS_NS } from './i18n';

/** Subscribers (SPEC §2 /subscribers, /subscribers/add, /subscribers/edit/:id): part of the purchased PBX. */
const feature = FEATURES.pbx;

export const subscribersRoutes: RouteDef[] = crudRoutes(paths.subscriber, PERM.subscriber, () => import('./screens'), feature);

export const subscribersNav = (): NavEntry[] => [
  { label: i18n.t('nav', { ns: SUBSCRIBERS_NS }), path: paths.subscriber.list, icon: 'call', permission: PERM.subscriber.view, feature },
];
