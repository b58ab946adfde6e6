import { paths, PBX_RESOURCES, PERM, RING_STRATEGY_LABELS, type RingGroup, RingGroupInputSchema } from '@tongdai/contracts';
import { descCol, destCol, extensionsCol, groupMailboxCol, labelCol, nameCol, textCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { RINGGROUP_NS } from './i18n';

/** A ring group: extensions rung by a strategy for a time, then (optionally) somewhere else. */
export const ringGroupEntity = pbxEntity<RingGroup>({
  key: 'ringgroup', ns: RINGGROUP_NS, resource: PBX_RESOURCES.ringGroup, permission: PERM.ringgroup, paths: paths.ringGroup,
  schema: RingGroupInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'strategy', kind: 'choice', options: RING_STRATEGY_LABELS },
    { name: 'extensions', kind: 'extensions' },
    { name: 'ring_time', kind: 'int', unit: 'pbx:seconds' },
    { name: 'destination', kind: 'destination' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    extensionsCol('extensions', (r) => r.extensions),
    labelCol('strategy', RING_STRATEGY_LABELS, (r) => r.strategy),
    textCol('ring_time', (r) => r.ring_time, ' s'),
    destCol('destination', (r) => r.destination),
    groupMailboxCol(),
    descCol(),
  ],
  rowName: (r) => r.name,
});
