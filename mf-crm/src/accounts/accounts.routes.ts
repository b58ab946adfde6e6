import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { ACCOUNTS_NS } from './i18n';

/** Tenant user accounts (SPEC §2 /accounts, /account/add, /account/edit/:id). */
export const accountsRoutes: RouteDef[] = [
  { path: '/accounts', loader: () => import('./AccountListScreen'), permission: PERM.account.view },
  { path: '/account/add', loader: () => import('./AccountFormScreen'), permission: PERM.account.create },
  { path: '/account/edit/:id', loader: () => import('./AccountFormScreen'), permission: PERM.account.edit },
];

export const accountsNav = (): NavEntry[] => [{ label: i18n.t('nav', { ns: ACCOUNTS_NS }), path: '/accounts', icon: 'person', permission: PERM.account.view }];
