import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataFilter, One, Paged } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

/** REST hooks shared by every organisation entity: `path` is the API collection (e.g. "departments"). */

const DATA_FILTER = ['org', 'data-filter'];

export function useOrgList<T>(path: string, q: { page: number; search: string; department_id?: string }) {
  return useQuery({
    queryKey: ['org', path, 'list', q],
    queryFn: () => {
      const searchParams: Record<string, string | number> = { page: q.page, search: q.search };
      if (q.department_id) searchParams.department_id = q.department_id;
      return tenantApi().get(path, { searchParams }).json<Paged<T>>();
    },
    placeholderData: keepPreviousData,
  });
}

export function useOrgOne<T>(path: string, id: number | null) {
  return useQuery({
    queryKey: ['org', path, 'one', id],
    queryFn: () => tenantApi().get(`${path}/${id}`).json<One<T>>().then((r) => r.data),
    enabled: id !== null,
  });
}

/** Every write also refreshes the dropdowns (GET /get-data-filter), which list the same rows. */
export function useSaveOrg<T>(path: string, id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: unknown) =>
      (id === null ? tenantApi().post(path, { json: input }) : tenantApi().put(`${path}/${id}`, { json: input })).json<One<T>>(),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['org'] }), qc.invalidateQueries({ queryKey: ['customers'] })]),
  });
}

export function useDeleteOrg(path: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().delete(`${path}/${id}`),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['org'] }), qc.invalidateQueries({ queryKey: ['customers'] })]),
  });
}

/** GET /get-data-filter: projects, data sources, profile statuses, departments, teams, branches, users. */
export function useDataFilter() {
  return useQuery({
    queryKey: DATA_FILTER,
    queryFn: () => tenantApi().get('get-data-filter').json<One<DataFilter>>().then((r) => r.data),
    staleTime: 60_000,
  });
}
