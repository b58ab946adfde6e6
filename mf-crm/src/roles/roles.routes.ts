import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { ROLES_NS } from './i18n';

/** Roles and permissions (SPEC §2 /roles, /role/add, /role/edit/:id; actions of SPEC §6). */
export const rolesRoutes: RouteDef[] = [
  { path: '/roles', loader: () => import('./RoleListScreen'), permission: PERM.role.view },
  { path: '/role/add', loader: () => import('./RoleFormScreen'), permission: PERM.role.create },
  { path: '/role/edit/:id', loader: () => import('./RoleFormScreen'), permission: PERM.role.edit },
];

export const rolesNav = (): NavEntry[] => [{ label: i18n.t('nav', { ns: ROLES_NS }), path: '/roles', icon: 'shield', permission: PERM.role.view }];
