import { IvrInputSchema, PBX_RESOURCES, PERM, type Ivr } from '@tongdai/contracts';
import { descCol, destCol, nameCol } from '../shared/columns';
import type { PbxEntity } from '../shared/entity';
import { IVR_NS } from './i18n';
import { ivrPaths } from './ivr.routes';

/** An IVR menu: a greeting, then the caller's digit picks a destination. */
export const ivrEntity: PbxEntity<Ivr> = {
  key: 'ivr', ns: IVR_NS, resource: PBX_RESOURCES.ivr, perm: PERM.ivr, paths: ivrPaths,
  schema: IvrInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'greeting_id', kind: 'greeting' },
    { name: 'entries', kind: 'ivrEntries' },
    { name: 'timeout', kind: 'int', unit: 'seconds' },
    { name: 'invalid_retries', kind: 'int' },
    { name: 'timeout_destination', kind: 'destination' },
    { name: 'invalid_destination', kind: 'destination' },
    { name: 'direct_dial', kind: 'switch', states: 'onOff' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    {
      key: 'entries', header: 'entries', render: (r, c) => {
        const text = r.entries.map((e) => `${e.digit} → ${c.describe(e.destination)}`).join('; ');
        return <span data-testid="row-entries" title={text}>{text || '—'}</span>;
      },
    },
    destCol('timeout_destination', (r) => r.timeout_destination),
    descCol(),
  ],
  rowName: (r) => r.name,
};
