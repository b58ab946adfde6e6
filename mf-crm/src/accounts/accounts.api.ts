import { useQuery } from '@tanstack/react-query';
import type { MaxUserResult, One } from '@tongdai/contracts';
import { cpApi, session, tenantApi } from '@tongdai/platform';

/** Control panel (SPEC §7): seats used and allowed, asked before the create form is offered. */
export const fetchSeats = () =>
  cpApi().post('get-max-user-company-tenancy', { json: { ma_dn: session.get().maDn } }).json<One<MaxUserResult>>().then((r) => r.data);

export interface Option {
  id: number;
  name: string;
  department_id?: number;
}

/**
 * Dropdown data of the organisation (another area's calls). A failure leaves the list empty:
 * the account form still works without department, team or branch.
 */
function useOptions(key: string, load: () => Promise<Option[]>) {
  return useQuery({ queryKey: ['org-options', key], queryFn: () => load().catch(() => [] as Option[]), staleTime: 60_000 }).data ?? [];
}
export const useDepartments = () => useOptions('departments', () => tenantApi().get('all-department').json<{ data: Option[] }>().then((r) => r.data));
export const useTeams = () => useOptions('teams', () => tenantApi().get('all-team').json<{ data: Option[] }>().then((r) => r.data));
export const useBranches = () =>
  useOptions('branches', () => tenantApi().get('get-data-filter').json<{ data: { branches?: Option[] } }>().then((r) => r.data.branches ?? []));
