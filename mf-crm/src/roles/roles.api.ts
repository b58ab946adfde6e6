import { useQuery } from '@tanstack/react-query';
import { ALL_ROWS_PER_PAGE, type Paged, type PermissionRow, type RoleListRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const KEY = 'roles';

/** SPEC §9: the unpaginated fetch uses per_page 9999999 (role dropdowns, export). */
export const fetchAllRoles = () =>
  tenantApi().get('roles', { searchParams: { page: 1, per_page: ALL_ROWS_PER_PAGE } }).json<Paged<RoleListRow>>().then((r) => r.data);

export function useAllRoles(enabled = true) {
  return useQuery({ queryKey: [KEY, 'all'], queryFn: fetchAllRoles, enabled });
}

export const fetchPermissions = () => tenantApi().get('permissions').json<{ data: PermissionRow[] }>().then((r) => r.data);

export function usePermissions() {
  return useQuery({ queryKey: ['permissions'], queryFn: fetchPermissions, staleTime: Infinity });
}
