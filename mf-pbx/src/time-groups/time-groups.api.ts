import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PBX_RESOURCES, type TimeGroup, type TimeRange, type TimeRangeInput } from '@tongdai/contracts';
import { pbxApi } from '@tongdai/platform';
import { codeCompany } from '../shared/pbx.api';

/** The ranges of a group: POST /partner/time-group/{id}/ranges, PUT/DELETE …/ranges/{detailId}. */
const ranges = (groupId: number) => `partner/${PBX_RESOURCES.timeGroup}/${groupId}/ranges`;
const searchParams = () => ({ CodeCompany: codeCompany() });

function useRangeMutation<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['pbx'] }) });
}

export const useAddRange = (groupId: number) =>
  useRangeMutation((input: TimeRangeInput) => pbxApi().post(ranges(groupId), { json: input, searchParams: searchParams() }).json<{ data: TimeRange | TimeGroup }>());

export const useSaveRange = (groupId: number, detailId: number) =>
  useRangeMutation((input: TimeRangeInput) => pbxApi().put(`${ranges(groupId)}/${detailId}`, { json: input, searchParams: searchParams() }).json<{ data: TimeRange | TimeGroup }>());

export const useDeleteRange = () =>
  useRangeMutation((r: { groupId: number; detailId: number }) => pbxApi().delete(`${ranges(r.groupId)}/${r.detailId}`, { searchParams: searchParams() }));
