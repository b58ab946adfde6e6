import { useQuery } from '@tanstack/react-query';
import type { DepartmentTeamSummaryResponse, ExtensionSummaryResponse } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { rangeHeld, useListParams } from '@tongdai/ui';
import { rangeDays } from '../history/history.api';

/** The summary screens' filters, in the URL as call history keeps them (?range= a preset, "" = today, or "from~to"). */
export const SUMMARY_FILTER_KEYS = ['range', 'direction', 'result', 'extension', 'department_id', 'team_id', 'queue_id'] as const;
export type SummaryFilters = Record<(typeof SUMMARY_FILTER_KEYS)[number], string>;

export function useSummaryFilters() {
  const list = useListParams([...SUMMARY_FILTER_KEYS]);
  return { filters: list.filters as SummaryFilters, setFilter: list.setFilter };
}

const read = <T,>(path: string, { range, ...rest }: SummaryFilters) => {
  const params = { ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== '')), ...rangeDays(range) };
  return {
    queryKey: ['reports', path, params],
    queryFn: () => tenantApi().get(`reports/${path}`, { searchParams: params }).json<T>(),
    retry: false,
    // A reversed range in the URL is said beside the range fields and not asked (SummaryPage shows no table).
    enabled: !rangeHeld(range),
  };
};

export const useExtensionSummary = (filters: SummaryFilters) => useQuery(read<ExtensionSummaryResponse>('by-extension', filters));
export const useDepartmentTeamSummary = (filters: SummaryFilters) => useQuery(read<DepartmentTeamSummaryResponse>('by-department-team', filters));
