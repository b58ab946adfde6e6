import { Input, Select, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CALL_RESULTS, DATE_PRESETS, REPORT_DIRECTIONS, SWITCHBOARD_CARRIER_NAMES, vnDay, type CallReportOptions } from '@tongdai/contracts';
import { selectFilter, type EntityFilter } from '@tongdai/ui';
import { NS } from '../i18n';
import { RANGE_SEPARATOR, rangeDays, useHistoryOptions } from './history.api';

const useStyles = makeStyles({ range: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' } });

/** Hôm nay, Hôm qua, 7 ngày qua, Tháng này, Tháng trước, or two dates of one's own; all in ?range=. */
function RangeControl({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const custom = value.includes(RANGE_SEPARATOR);
  const days = rangeDays(value);
  const setDays = (from: string, to: string) => onChange(`${from}${RANGE_SEPARATOR}${to}`);
  const pick = (preset: string) => {
    if (preset !== 'custom') return onChange(preset === 'today' ? '' : preset);
    const today = vnDay(new Date());
    setDays(days.from ?? today, days.to ?? today);
  };
  return (
    <span className={s.range}>
      <Select value={custom ? 'custom' : value || 'today'} onChange={(_, d) => pick(d.value)} aria-label={t('filters.range')} data-testid="range-filter">
        {Object.entries(DATE_PRESETS).map(([k, label]) => <option key={k} value={k}>{label}</option>)}
      </Select>
      {custom && (
        <>
          <Input type="date" value={days.from ?? ''} onChange={(_, d) => setDays(d.value, days.to ?? '')} aria-label={t('filters.from')} data-testid="range-from" />
          <Input type="date" value={days.to ?? ''} onChange={(_, d) => setDays(days.from ?? '', d.value)} aria-label={t('filters.to')} data-testid="range-to" />
        </>
      )}
    </span>
  );
}

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

export const rangeFilter: EntityFilter = { key: 'range', Control: RangeControl };
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
