import { CALL_RESULTS, REPORT_DIRECTIONS, SWITCHBOARD_CARRIER_NAMES, type CallReportOptions } from '@tongdai/contracts';
import { dateRangeFilter, selectFilter, type EntityFilter } from '@tongdai/ui';
import { NS } from '../i18n';
import { useHistoryOptions } from './history.api';

const choices = (labels: Readonly<Record<string, string>>) => () => Object.entries(labels).map(([value, label]) => ({ value, label }));
/** A dropdown of the options endpoint; hidden when it offers nothing (an agent has no departments to pick). */
const fromOptions = (pick: (o: CallReportOptions) => { value: string | number; label: string }[]) => () => {
  const options = useHistoryOptions();
  const list = options ? pick(options) : [];
  return list.length ? list : null;
};

/** A dropdown filter of mf-reports (label and 'all' under filters.*). */
export const select = (key: string, name: string, all: string, useOptions: () => readonly { value: string | number; label: string }[] | null) =>
  selectFilter({ key, ns: NS, label: `filters.${name}`, all: `filters.${all}`, testId: `${name}-filter`, useOptions });

/** Hôm nay, Hôm qua, 7 ngày qua, Tháng này, Tháng trước, or two dates of one's own; all in ?range=. */
export const rangeFilter: EntityFilter = dateRangeFilter();
export const directionFilter = select('direction', 'direction', 'allDirections', choices(REPORT_DIRECTIONS));
export const resultFilter = select('result', 'result', 'allResults', choices(CALL_RESULTS));
export const departmentFilter = select('department_id', 'department', 'allDepartments', fromOptions((o) => o.departments.map((d) => ({ value: d.id, label: d.name }))));
export const teamFilter = select('team_id', 'team', 'allTeams', fromOptions((o) => o.teams.map((d) => ({ value: d.id, label: d.name }))));
/** The tenant's hotlines (number · carrier · switchboard): /etelecom/call-history?hotline=. */
export const hotlineFilter = select('hotline', 'hotline', 'allHotlines', fromOptions((o) => o.hotlines.map((h) => ({ value: h.number, label: `${h.number} · ${SWITCHBOARD_CARRIER_NAMES[h.carrier]} · ${h.switchboard}` }))));
export const orgFilters: EntityFilter[] = [
  select('extension', 'extension', 'allExtensions', fromOptions((o) => o.extensions.map((e) => ({ value: e.extension, label: `${e.extension} – ${e.name}` })))),
  departmentFilter,
  teamFilter,
  select('queue_id', 'queue', 'allQueues', fromOptions((o) => o.queues.map((d) => ({ value: d.id, label: d.name })))),
];
