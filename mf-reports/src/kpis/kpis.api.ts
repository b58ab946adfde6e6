import { useQuery } from '@tanstack/react-query';
import type { DataFilter, KpiAssigneeType, KpiByDepartmentResponse, One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource } from '@tongdai/ui';

/** GET/POST /kpis, GET/PUT/DELETE /kpis/:id. */
export const kpiResource = crudResource({ scope: 'kpis', name: 'kpis', base: 'kpis', client: tenantApi });

/** The agents, teams and departments a KPI can be given to (GET /get-data-filter, any user of the tenant). */
export function useAssignees() {
  return useQuery({
    queryKey: ['kpis', 'assignees'],
    queryFn: () => tenantApi().get('get-data-filter').json<One<DataFilter>>().then((r) => r.data),
    select: (d): Record<KpiAssigneeType, { id: number; name: string }[]> => ({ user: d.users, team: d.teams, department: d.departments }),
    staleTime: 60_000,
  });
}

export const useKpisByDepartment = () =>
  useQuery({ queryKey: ['kpis', 'by-department'], queryFn: () => tenantApi().get('kpis/by-department').json<KpiByDepartmentResponse>() });
