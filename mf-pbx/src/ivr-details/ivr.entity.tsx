import { type Ivr, IvrInputSchema, paths, PBX_RESOURCES, PERM } from '@tongdai/contracts';
import { descCol, dialCodeCol, destCol, DestinationText, nameCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { IVR_NS } from './i18n';

/** An IVR menu: a greeting, then the caller's digit picks a destination. */
export const ivrEntity = pbxEntity<Ivr>({
  key: 'ivr', ns: IVR_NS, resource: PBX_RESOURCES.ivr, permission: PERM.ivr, paths: paths.ivr,
  schema: IvrInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'greeting_id', kind: 'greeting' },
    { name: 'entries', kind: 'ivrEntries' },
    { name: 'timeout', kind: 'int', unit: 'pbx:seconds' },
    { name: 'invalid_retries', kind: 'int' },
    { name: 'timeout_destination', kind: 'destination' },
    { name: 'invalid_destination', kind: 'destination' },
    { name: 'direct_dial', kind: 'switch', states: 'onOff' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    dialCodeCol('ivr'),
    {
      key: 'entries', header: 'entries', render: (r) => (
        <DestinationText testId="row-entries" get={(describe) => r.entries.map((e) => `${e.digit} → ${describe(e.destination)}`).join('; ') || '—'} />
      ),
    },
    destCol('timeout_destination', (r) => r.timeout_destination),
    descCol(),
  ],
  rowName: (r) => r.name,
});
