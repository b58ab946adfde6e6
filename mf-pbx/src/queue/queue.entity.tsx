import { paths, PBX_RESOURCES, PERM, type Queue, QUEUE_STRATEGY_LABELS, QueueInputSchema } from '@tongdai/contracts';
import { descCol, dialCodeCol, destCol, extensionsCol, labelCol, nameCol, textCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { recordingCol, recordingModeField } from '../shared/recording';
import { QUEUE_NS } from './i18n';

/** A call queue: callers wait (greeting, music on hold) while agents are rung by a strategy. */
export const queueEntity = pbxEntity<Queue>({
  key: 'queue', ns: QUEUE_NS, resource: PBX_RESOURCES.queue, permission: PERM.queue, paths: paths.queue,
  schema: QueueInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'strategy', kind: 'choice', options: QUEUE_STRATEGY_LABELS },
    { name: 'agents', kind: 'extensions' },
    { name: 'agent_timeout', kind: 'int', unit: 'pbx:seconds' },
    { name: 'max_wait', kind: 'int', unit: 'pbx:seconds' },
    { name: 'timeout_destination', kind: 'destination' },
    { name: 'join_greeting_id', kind: 'greeting' },
    { name: 'moh_class', kind: 'moh' },
    { name: 'sla_seconds', kind: 'int', unit: 'pbx:seconds' },
    { name: 'amber_wait_seconds', kind: 'int', unit: 'pbx:seconds' },
    { name: 'red_wait_seconds', kind: 'int', unit: 'pbx:seconds' },
    recordingModeField,
    // Post-call CSAT (issue 34): once the agent hangs up, the caller is asked for a key 1–5.
    { name: 'csat', kind: 'switch', states: 'onOff', hint: true },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    dialCodeCol('queue'),
    extensionsCol('agents', (r) => r.agents),
    labelCol('strategy', QUEUE_STRATEGY_LABELS, (r) => r.strategy),
    textCol('max_wait', (r) => r.max_wait, ' s'),
    destCol('timeout_destination', (r) => r.timeout_destination),
    recordingCol(),
    descCol(),
  ],
  rowName: (r) => r.name,
});
