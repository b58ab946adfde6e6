import { Badge, ProgressBar, Text, makeStyles } from '@fluentui/react-components';
import {
  KPI_ASSIGNEE_TYPES, KPI_MEASURES, KPI_PERIODS, KPI_STATUS_LABELS, KpiCreateSchema, KpiUpdateSchema, PERM, FEATURES, paths,
  type Kpi, type KpiStatus,
} from '@tongdai/contracts';
import { defineEntity, selectFilter } from '@tongdai/ui';
import './fieldKinds';
import { kpiResource } from './kpis.api';
import { KPI_NS } from './kpis.i18n';

const useStyles = makeStyles({ progress: { display: 'flex', flexDirection: 'column', gap: '4px', minWidth: '160px' } });

/** Bar and badge colours: met and on track green, behind red, nothing to judge yet neutral. */
export const STATUS_COLOR: Record<KpiStatus, 'success' | 'error' | 'brand'> = { met: 'success', on_track: 'success', behind: 'error', not_started: 'brand', no_calls: 'brand' };
const BADGE_COLOR = { success: 'success', error: 'danger', brand: 'informative' } as const;

const num = new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 1 });
/** A CSAT score (1–5) always shows its decimal, as the summaries do: 4 → "4,0". */
const score = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/**
 * "12 / 40 cuộc", "35,5 / 60 phút", "4,2 / 4,5 điểm". A CSAT KPI with no call rated yet (or not
 * started) shows "—" for its actual: 0 is not a score on the 1–5 scale.
 */
export const figure = (k: Pick<Kpi, 'measure' | 'target'>, p: Pick<Kpi['progress'], 'actual' | 'status'>) => {
  const f = k.measure === 'csat_avg' ? score : num;
  const actual = k.measure === 'csat_avg' && (p.status === 'no_calls' || p.status === 'not_started') ? '—' : f.format(p.actual);
  return `${actual} / ${f.format(k.target)} ${KPI_MEASURES[k.measure].unit}`;
};
const day = (d: string) => d.split('-').reverse().join('/');

/** A KPI's bar (coloured by where it stands) and its actual against the target. */
export function Progress({ kpi }: { kpi: Kpi }) {
  const s = useStyles();
  const p = kpi.progress;
  return (
    <div className={s.progress} data-testid="kpi-progress" data-status={p.status}>
      {/* A measurement against a target, not work in progress: a meter (screens wait for progressbars to go). */}
      <ProgressBar role="meter" value={Math.min(1, p.percent / 100)} color={STATUS_COLOR[p.status]} thickness="large" aria-label={`${kpi.name}: ${num.format(p.percent)}%`} />
      <Text size={200}><span data-testid="kpi-actual">{figure(kpi, p)}</span> ({num.format(p.percent)}%)</Text>
    </div>
  );
}

const staticFilter = (key: string, label: string, all: string, options: Record<string, string>) =>
  selectFilter({ key, ns: KPI_NS, label, all, testId: `${key.replace('_', '-')}-filter`, useOptions: () => Object.entries(options).map(([value, l]) => ({ value, label: l })) });

/**
 * KPIs as a kit declaration: the list (/kpis) with progress, the add page (/kpi/add, kpiAddEntity)
 * and the edit dialog on the list (?dialog=<id>: the SPEC has no edit route).
 */
export const kpiEntity = defineEntity<Kpi>({
  key: 'kpi', ns: KPI_NS, paths: paths.kpi, permission: PERM.kpi, feature: FEATURES.report,
  // Editing keeps a start that is now past; creating refuses one (kpiAddEntity).
  schema: KpiUpdateSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'measure', kind: 'choice', options: Object.fromEntries(Object.entries(KPI_MEASURES).map(([k, m]) => [k, m.label])), placeholder: 'choose', required: true },
    { name: 'target', kind: 'text', hint: true, required: true },
    { name: 'period', kind: 'choice', options: KPI_PERIODS, placeholder: 'choose', required: true },
    { name: 'start_date', kind: 'date', required: true },
    { name: 'assignee', kind: 'assignee', required: true },
  ],
  api: kpiResource,
  rowName: (r) => r.name,
  filters: [
    staticFilter('period', 'fields.period', 'allPeriods', KPI_PERIODS),
    staticFilter('assignee_type', 'fields.assignee_type', 'allAssigneeTypes', KPI_ASSIGNEE_TYPES),
  ],
  columns: [
    { key: 'name', header: 'name', render: (r) => <span data-testid="row-name">{r.name}</span> },
    { key: 'measure', header: 'measure', render: (r) => KPI_MEASURES[r.measure].label },
    { key: 'assignee', header: 'assignee', render: (r, { t }) => `${KPI_ASSIGNEE_TYPES[r.assignee.type]}: ${r.assignee_name ?? t('deletedAssignee')}` },
    { key: 'period', header: 'period', render: (r) => `${KPI_PERIODS[r.period]} (${day(r.progress.period_from)}${r.period === 'day' ? '' : ` – ${day(r.progress.period_to)}`})` },
    { key: 'progress', header: 'progress', render: (r) => <Progress kpi={r} /> },
    {
      key: 'status', header: 'status',
      render: (r) => <Badge appearance="tint" color={BADGE_COLOR[STATUS_COLOR[r.progress.status]]} data-testid="kpi-status">{KPI_STATUS_LABELS[r.progress.status]}</Badge>,
    },
  ],
});

/** /kpi/add: the same declaration, with the rule that a new KPI does not start in the past. */
export const kpiAddEntity = defineEntity<Kpi>({ ...kpiEntity, schema: KpiCreateSchema });
