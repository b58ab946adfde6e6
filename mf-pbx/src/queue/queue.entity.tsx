import { PBX_RESOURCES, PERM, QUEUE_STRATEGY_LABELS, QueueInputSchema, type Queue } from '@tongdai/contracts';
import { descCol, destCol, extensionsCol, labelCol, nameCol, textCol } from '../shared/columns';
import type { PbxEntity } from '../shared/entity';
import { QUEUE_NS } from './i18n';
import { queuePaths } from './queue.routes';

/** A call queue: callers wait (greeting, music on hold) while agents are rung by a strategy. */
export const queueEntity: PbxEntity<Queue> = {
  key: 'queue', ns: QUEUE_NS, resource: PBX_RESOURCES.queue, perm: PERM.queue, paths: queuePaths,
  schema: QueueInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'strategy', kind: 'choice', options: QUEUE_STRATEGY_LABELS },
    { name: 'agents', kind: 'extensions' },
    { name: 'agent_timeout', kind: 'int', unit: 'seconds' },
    { name: 'max_wait', kind: 'int', unit: 'seconds' },
    { name: 'timeout_destination', kind: 'destination' },
    { name: 'join_greeting_id', kind: 'greeting' },
    { name: 'moh_class', kind: 'moh' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    extensionsCol('agents', (r) => r.agents),
    labelCol('strategy', QUEUE_STRATEGY_LABELS, (r) => r.strategy),
    textCol('max_wait', (r) => r.max_wait, ' s'),
    destCol('timeout_destination', (r) => r.timeout_destination),
    descCol(),
  ],
  rowName: (r) => r.name,
};
