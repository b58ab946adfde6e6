import { paths, PBX_RESOURCES, type PbxNumber, PbxNumberInputSchema, PERM } from '@tongdai/contracts';
import { activeCol, descCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { NUMBERS_NS } from './i18n';

/** The tenant's DIDs: a number, what it is for, and whether calls to it are taken. */
export const numberEntity = pbxEntity<PbxNumber>({
  key: 'number', ns: NUMBERS_NS, resource: PBX_RESOURCES.number, permission: PERM.number, paths: paths.number,
  schema: PbxNumberInputSchema,
  fields: [{ name: 'number', kind: 'tel', required: true }, { name: 'description', kind: 'textarea' }, { name: 'active', kind: 'switch' }],
  columns: [
    { key: 'number', header: 'number', render: (r) => <strong data-testid="row-name">{r.number}</strong> },
    descCol(), activeCol(),
  ],
  rowName: (r) => r.number,
  // SPEC §7 GET /partner/number/{number}: the detail call names a number by its digits.
  detailKey: (r) => r.number,
});
