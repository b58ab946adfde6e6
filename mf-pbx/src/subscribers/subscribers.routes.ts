import { FEATURES, PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { SUBSCRIBERS_NS } from './i18n';

/** Subscribers (SPEC §2 /subscribers, /subscribers/add, /subscribers/edit/:id): part of the purchased PBX. */
const feature = FEATURES.pbx;

export const subscriberPaths = {
  list: () => '/subscribers',
  add: () => '/subscribers/add',
  edit: (id: number | string) => `/subscribers/edit/${id}`,
};

export const subscribersRoutes: RouteDef[] = [
  { path: subscriberPaths.list(), loader: () => import('./SubscriberListScreen'), permission: PERM.subscriber.view, feature },
  { path: subscriberPaths.add(), loader: () => import('./SubscriberFormScreen'), permission: PERM.subscriber.create, feature },
  { path: '/subscribers/edit/:id', loader: () => import('./SubscriberFormScreen'), permission: PERM.subscriber.edit, feature },
];

export const subscribersNav = (): NavEntry[] => [
  { label: i18n.t('nav', { ns: SUBSCRIBERS_NS }), path: subscriberPaths.list(), icon: 'call', permission: PERM.subscriber.view, feature },
];
