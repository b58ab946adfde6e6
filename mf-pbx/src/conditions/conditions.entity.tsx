import { Text } from '@fluentui/react-components';
import { type Destination, paths, PBX_RESOURCES, PERM, TIME_OVERRIDE_LABELS, type TimeCondition, TimeConditionInputSchema } from '@tongdai/contracts';
import { DestinationText, nameCol } from '../shared/columns';
import type { EntityColumn } from '@tongdai/ui';
import { pbxEntity } from '../shared/entity';
import { CONDITIONS_NS } from './i18n';
import { TimeGroupName } from './TimeGroupSelect';
import { describeOverride } from './timezones';

// The list's cells truncate; these carry what the row is about, so they wrap instead.
const wrap = { whiteSpace: 'normal', display: 'block', padding: '6px 0' } as const;
const wrapDest = (key: string, get: (r: TimeCondition) => Destination): EntityColumn<TimeCondition> => ({
  key, header: key, render: (r) => <DestinationText style={wrap} title={false} testId={`row-${key}`} get={(describe) => describe(get(r))} />,
});

/**
 * A time condition: its time group decides between two destinations, unless overridden by hand.
 * The form draws time group, override and time zone itself (ConditionFormScreen); the other
 * fields are the shared PBX fields.
 */
export const conditionEntity = pbxEntity<TimeCondition>({
  key: 'condition', ns: CONDITIONS_NS, resource: PBX_RESOURCES.timeCondition, permission: PERM.timecondition, paths: paths.condition,
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
});
