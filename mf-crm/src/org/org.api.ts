import { useQuery } from '@tanstack/react-query';
import type { DataFilter, One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const DATA_FILTER = ['org', 'data-filter'];

/** GET /get-data-filter: projects, data sources, profile statuses, departments, teams, branches, users. */
export function useDataFilter() {
  return useQuery({
    queryKey: DATA_FILTER,
    queryFn: () => tenantApi().get('get-data-filter').json<One<DataFilter>>().then((r) => r.data),
    staleTime: 60_000,
  });
}
