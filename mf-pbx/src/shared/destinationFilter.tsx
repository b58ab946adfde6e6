import { Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { DESTINATION_FILTER_OPTIONS } from '@tongdai/contracts';
import type { EntityFilter } from '@tongdai/ui';
import { PBX_NS } from './pbx.i18n';

/** data-testid of the destination-type filter (SPEC §3 filter_action). */
export const DESTINATION_FILTER_TESTID = 'destination-filter';

function DestinationFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(PBX_NS);
  return (
    <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('destinationFilter')} data-testid={DESTINATION_FILTER_TESTID}>
      {DESTINATION_FILTER_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
    </Select>
  );
}

/** The list filters by destination type (?filter_action=, SPEC §3). */
export const destinationFilter: EntityFilter = { key: 'filter_action', Control: DestinationFilter };
