import { useQuery } from '@tanstack/react-query';
import type { DepartmentTeamSummaryResponse, ExtensionSummaryResponse } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useListParams } from '@tongdai/ui';
import { rangeDays } from '../history/history.api';

/** The summary screens' one filter: ?range= (a preset, "" = today, or "from~to"), as call history keeps it. */
export function useRange() {
  const list = useListParams(['range']);
  return { range: list.filters.range, setRange: (v: string) => list.setFilter('range', v) };
}

const read = <T,>(path: string, range: string) => {
  const days = rangeDays(range);
  return {
    queryKey: ['reports', path, days],
    queryFn: () => tenantApi().get(`reports/${path}`, { searchParams: days }).json<T>(),
    retry: false,
  };
};

export const useExtensionSummary = (range: string) => useQuery(read<ExtensionSummaryResponse>('by-extension', range));
export const useDepartmentTeamSummary = (range: string) => useQuery(read<DepartmentTeamSummaryResponse>('by-department-team', range));
