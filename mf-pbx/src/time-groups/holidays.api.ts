import { useQuery } from '@tanstack/react-query';
import { HOLIDAY_API, type HolidayOverride, type HolidayYear } from '@tongdai/contracts';
import { pbxApi } from '@tongdai/platform';
import { crudResource, type CrudResource } from '@tongdai/ui';
import { codeCompany } from '../shared/pbx.api';

/** Vietnam's public holidays (issue 39): the year's list, and the tenant's overrides as a kit resource. */

const searchParams = () => ({ CodeCompany: codeCompany() });

/** GET /pbx/partner/holidays?year= (no year: the coming one, as the API decides). Under the 'pbx' key: a write refreshes it. */
export function useHolidayYear(year: number | null) {
  return useQuery({
    queryKey: ['pbx', HOLIDAY_API.holidays, year],
    queryFn: () => pbxApi().get(`partner/${HOLIDAY_API.holidays}`, { searchParams: { ...searchParams(), ...(year ? { year } : {}) } }).json<HolidayYear>(),
  });
}

/** /pbx/partner/holiday-overrides: the list answers { data } (every override, a few a year). */
export const holidayOverrides: CrudResource = crudResource({
  scope: 'pbx', name: HOLIDAY_API.overrides, base: `partner/${HOLIDAY_API.overrides}`, client: pbxApi, searchParams,
  toPaged: ((body: { data: HolidayOverride[] }) => ({ data: body.data, meta: { page: 1, per_page: body.data.length, total: body.data.length } })) as CrudResource['toPaged'],
});
