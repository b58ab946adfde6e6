import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALL_ROWS_PER_PAGE, type One, type Paged, type PermissionRow, type RoleDetail, type RoleInput, type RoleListRow,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const KEY = 'roles';

/** SPEC §9: the unpaginated fetch uses per_page 9999999 (role dropdowns, export). */
export const fetchAllRoles = () =>
  tenantApi().get('roles', { searchParams: { page: 1, per_page: ALL_ROWS_PER_PAGE } }).json<Paged<RoleListRow>>().then((r) => r.data);

export function useAllRoles(enabled = true) {
  return useQuery({ queryKey: [KEY, 'all'], queryFn: fetchAllRoles, enabled });
}

export function useRole(id: number | null) {
  return useQuery({
    queryKey: [KEY, 'one', id],
    queryFn: () => tenantApi().get(`role/${id}`).json<One<RoleDetail>>().then((r) => r.data),
    enabled: id !== null,
  });
}

export const fetchPermissions = () => tenantApi().get('permissions').json<{ data: PermissionRow[] }>().then((r) => r.data);

export function usePermissions() {
  return useQuery({ queryKey: ['permissions'], queryFn: fetchPermissions, staleTime: Infinity });
}

export function useSaveRole(id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RoleInput) =>
      (id === null ? tenantApi().post('role', { json: input }) : tenantApi().put(`role/${id}`, { json: input })).json<One<RoleDetail>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: [KEY] }),
  });
}

