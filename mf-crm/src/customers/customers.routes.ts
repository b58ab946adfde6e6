import { FEATURES, PERM, routes } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

const feature = FEATURES.customer;

export const customerRoutes: RouteDef[] = [
  { path: routes.customer.list(), loader: () => import('./CustomerListScreen'), permission: PERM.customer.view, feature },
  { path: routes.customer.add(), loader: () => import('./CustomerFormScreen'), permission: PERM.customer.create, feature },
  { path: '/customer/edit/:id', loader: () => import('./CustomerFormScreen'), permission: PERM.customer.edit, feature },
];

export const customerNav = (): NavEntry[] => [
  { label: i18n.t('nav.customers', { ns: NS }), path: routes.customer.list(), icon: 'people', permission: PERM.customer.view, feature },
];
