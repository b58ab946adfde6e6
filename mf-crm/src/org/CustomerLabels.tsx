import { Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { DataFilter } from '@tongdai/contracts';
import type { EntityFilter } from '@tongdai/ui';
import { useDataFilter } from './org.api';
import { ORG_NS } from './org.i18n';

/** The customer labels of SPEC §3 and the GET /get-data-filter list each one picks from. */
export const LABEL_KEYS = ['is_project', 'is_datasource', 'is_status'] as const;
type LabelKey = (typeof LABEL_KEYS)[number];
const SOURCE: Record<LabelKey, keyof DataFilter> = { is_project: 'projects', is_datasource: 'data_sources', is_status: 'profile_statuses' };
const ALL: Record<LabelKey, string> = { is_project: 'allProjects', is_datasource: 'allDataSources', is_status: 'allProfileStatuses' };
const testId = (k: LabelKey) => `${k.replace('is_', '').replace('datasource', 'data-source').replace('status', 'profile-status')}-filter`;

function useLabelOptions() {
  const data = useDataFilter().data;
  return (k: LabelKey) => (data?.[SOURCE[k]] ?? []).map((o) => ({ value: String(o.id), label: o.name }));
}

/** The filter dropdown of one label on the customer list (?is_project=, ?is_datasource=, ?is_status=). */
function LabelFilter({ k, value, onChange }: { k: LabelKey; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(ORG_NS);
  const options = useLabelOptions();
  return (
    <Select value={value ?? ''} onChange={(_, d) => onChange(d.value)} aria-label={t(`customerLabels.${k}`)} data-testid={testId(k)}>
      <option value="">{t(`customerLabels.${ALL[k]}`)}</option>
      {options(k).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
    </Select>
  );
}

/** Three filters of the customer list: project, data source, profile status. */
export const labelFilters: EntityFilter[] = LABEL_KEYS.map((k) => ({ key: k, Control: (p) => <LabelFilter k={k} {...p} /> }));
