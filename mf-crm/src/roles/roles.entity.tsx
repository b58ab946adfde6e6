import { PERM, RoleInputSchema, SUPER_ADMIN_ROLE, paths, roleLabel, type RoleListRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity } from '@tongdai/ui';
import { ROLES_NS } from './i18n';
import './PermissionMatrix';
import { fetchAllRoles, fetchPermissions, usePermissions } from './roles.api';

/** super-admin holds every permission whatever the table says (SPEC §6). */
function PermissionCount({ role }: { role: RoleListRow }) {
  const total = usePermissions().data?.length;
  return <span data-testid="role-permissions">{String(role.name === SUPER_ADMIN_ROLE && total ? total : role.permissions.length)}</span>;
}

/** Roles (SPEC §2 /roles): the list is the kit's (export to .xlsx); the form screen is its own (super-admin locked) over the kit's draft. */
export const roleEntity = defineEntity<RoleListRow>({
  key: 'role', ns: ROLES_NS, paths: paths.role, permission: PERM.role, schema: RoleInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true }, { name: 'display_name', kind: 'text' }, { name: 'description', kind: 'text' },
    { name: 'permissions', kind: 'permissions' },
  ],
  api: crudResource({ scope: 'roles', name: 'roles', base: 'role', client: tenantApi, endpoints: { list: () => 'roles' } }),
  rowName: (r) => r.name,
  columns: [
    { key: 'name', header: 'name', render: (r) => <span data-testid="role-name">{r.name}</span> },
    { key: 'display_name', header: 'display_name', render: (r) => <span data-testid="role-label">{roleLabel(r)}</span> },
    { key: 'description', header: 'description', render: (r) => r.description || '—' },
    { key: 'permissions', header: 'permissionsCount', render: (r) => <PermissionCount role={r} /> },
    // As a string: a bare 0 is dropped by the table cell's slot.
    { key: 'users', header: 'usersCount', render: (r) => <span data-testid="role-users">{String(r.users_count)}</span> },
  ],
  export: {
    permission: PERM.role.export,
    run: async () => {
      const { exportRoles } = await import('./exportRoles');
      const [roles, catalogue] = await Promise.all([fetchAllRoles(), fetchPermissions()]);
      await exportRoles(roles, catalogue);
    },
  },
});
