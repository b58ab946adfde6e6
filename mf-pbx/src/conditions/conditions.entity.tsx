import { Text } from '@fluentui/react-components';
import { PBX_RESOURCES, PERM, TIME_OVERRIDE_LABELS, TimeConditionInputSchema, type Destination, type TimeCondition } from '@tongdai/contracts';
import { nameCol } from '../shared/columns';
import type { PbxColumn, PbxEntity } from '../shared/entity';
import { conditionPaths } from './conditions.routes';
import { CONDITIONS_NS } from './i18n';
import { TimeGroupName } from './TimeGroupSelect';
import { describeOverride } from './timezones';

// The list's cells truncate; these carry what the row is about, so they wrap instead.
const wrap = { whiteSpace: 'normal', display: 'block', padding: '6px 0' } as const;
const wrapDest = (key: string, get: (r: TimeCondition) => Destination): PbxColumn<TimeCondition> => ({
  key, header: key, render: (r, c) => <span style={wrap} data-testid={`row-${key}`}>{c.describe(get(r))}</span>,
});

/**
 * A time condition: its time group decides between two destinations, unless overridden by hand.
 * The form draws time group, override and time zone itself (ConditionFormScreen); the other
 * fields are the shared PBX fields.
 */
export const conditionEntity: PbxEntity<TimeCondition> = {
  key: 'condition', ns: CONDITIONS_NS, resource: PBX_RESOURCES.timeCondition, perm: PERM.timecondition, paths: conditionPaths,
  schema: TimeConditionInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'time_group_id', kind: 'choice', options: {}, required: true },
    { name: 'matched_destination', kind: 'destination', required: true },
    { name: 'unmatched_destination', kind: 'destination', required: true },
    { name: 'override', kind: 'choice', options: TIME_OVERRIDE_LABELS },
    { name: 'timezone', kind: 'choice', options: {} },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    { key: 'time_group_id', header: 'time_group_id', render: (r) => <TimeGroupName id={r.time_group_id} /> },
    wrapDest('matched_destination', (r) => r.matched_destination),
    wrapDest('unmatched_destination', (r) => r.unmatched_destination),
    {
      key: 'override', header: 'override', render: (r) => (
        <Text size={200} weight={r.override === 'none' ? 'regular' : 'semibold'} style={wrap} data-testid="row-override">{describeOverride(r)}</Text>
      ),
    },
  ],
  rowName: (r) => r.name,
};
