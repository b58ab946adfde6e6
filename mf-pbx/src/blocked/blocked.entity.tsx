import { BLOCK_MATCH_LABELS, BlockedNumberInputSchema, PBX_RESOURCES, PERM, paths, type BlockDirection, type BlockedNumber, type PbxResource } from '@tongdai/contracts';
import { labelCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { formatDate } from '../area-kit/format';
import { BLOCKED_NS } from './i18n';

const resource: Record<BlockDirection, PbxResource> = { in: PBX_RESOURCES.blockedIn, out: PBX_RESOURCES.blockedOut };
const blockedPaths = { in: paths.blockedIn, out: paths.blockedOut } as const;

/** A blocked number of one direction: the exact number or every number starting with it. */
const blockedEntity = (d: BlockDirection) => pbxEntity<BlockedNumber>({
  key: `blocked-${d}`, ns: BLOCKED_NS[d], resource: resource[d], permission: PERM.blocked, paths: blockedPaths[d],
  schema: BlockedNumberInputSchema,
  fields: [
    { name: 'number', kind: 'tel', required: true, hint: true },
    { name: 'match', kind: 'choice', options: BLOCK_MATCH_LABELS },
    { name: 'note', kind: 'textarea' },
  ],
  columns: [
    { key: 'number', header: 'number', render: (r) => <strong data-testid="row-name">{r.number}</strong> },
    labelCol('match', BLOCK_MATCH_LABELS, (r) => r.match),
    { key: 'note', header: 'note', render: (r) => r.note || '—' },
    { key: 'created_at', header: 'created_at', render: (r) => formatDate(r.created_at) },
  ],
  rowName: (r) => r.number,
});

export const blockedInEntity = blockedEntity('in');
export const blockedOutEntity = blockedEntity('out');
