import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Customer, CustomerInput, One, Paged } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const KEY = 'customers';

export function useCustomerList(q: { page: number; search: string; status: string; is_project?: string; is_datasource?: string; is_status?: string }) {
  return useQuery({
    queryKey: [KEY, 'list', q],
    // Empty filters are left out of the query string.
    queryFn: () => tenantApi().get('customers', { searchParams: Object.fromEntries(Object.entries(q).filter(([, v]) => v !== '' && v !== undefined)) as Record<string, string | number> }).json<Paged<Customer>>(),
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(id: number | null) {
  return useQuery({
    queryKey: [KEY, 'one', id],
    queryFn: () => tenantApi().get(`customers/${id}`).json<One<Customer>>().then((r) => r.data),
    enabled: id !== null,
  });
}

export function useSaveCustomer(id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerInput) =>
      (id === null ? tenantApi().post('customers', { json: input }) : tenantApi().put(`customers/${id}`, { json: input })).json<One<Customer>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: [KEY] }),
  });
}

export function useDeleteCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().delete(`customers/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: [KEY] }),
  });
}
