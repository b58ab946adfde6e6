import { type LastCall, LastCallInputSchema, paths, PBX_RESOURCES, PERM } from '@tongdai/contracts';
import { descCol, destCol, nameCol, textCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { LASTCALLS_NS } from './i18n';

/** A returning caller rings the agent who last talked with them within N days, else the fallback. */
export const lastCallEntity = pbxEntity<LastCall>({
  key: 'last-call', ns: LASTCALLS_NS, resource: PBX_RESOURCES.lastCall, permission: PERM.lastcall, paths: paths.lastCall,
  schema: LastCallInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'days', kind: 'int', unit: 'pbx:days' },
    { name: 'ring_time', kind: 'int', unit: 'pbx:seconds' },
    { name: 'fallback_destination', kind: 'destination', required: true },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    textCol('days', (r) => r.days, ' ngày'),
    textCol('ring_time', (r) => r.ring_time, ' s'),
    destCol('fallback_destination', (r) => r.fallback_destination),
    descCol(),
  ],
  rowName: (r) => r.name,
});
