import { DNC_API, DNC_SOURCE_LABELS, DNC_SOURCE_SHORT, DncInputSchema, FEATURES, PERM, paths, type DncNumber } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, formatViDay, selectFilter, type PermSet } from '@tongdai/ui';
import { NS } from '../i18n';

/** dnc.view reads; dnc.edit adds, removes and imports (a number is not edited: remove and add again). */
const permission: PermSet = { view: PERM.dnc.view, create: PERM.dnc.edit, delete: PERM.dnc.edit };
export const DNC_SCOPE = 'dnc-numbers';
const sources = Object.entries(DNC_SOURCE_LABELS).map(([value, label]) => ({ value, label }));

/**
 * /marketings/dnc: the do-not-call lists (Decree 91) — the tenant's own and the national "Danh sách
 * không quảng cáo" — searched by a number's beginning, one number added with a note, a file imported.
 */
export const dncEntity = defineEntity<DncNumber>({
  key: 'dnc', ns: NS, prefix: 'dnc', paths: paths.dncNumber, permission, feature: FEATURES.survey,
  schema: DncInputSchema,
  fields: [
    { name: 'number', kind: 'tel', required: true },
    { name: 'source', kind: 'choice', options: DNC_SOURCE_LABELS, required: true },
    { name: 'note', kind: 'textarea' },
  ],
  columns: [
    { key: 'number', header: 'number', render: (r) => <strong data-testid="row-name">{r.number}</strong> },
    { key: 'source', header: 'source', width: '110px', render: (r) => <span data-testid="row-source" title={DNC_SOURCE_LABELS[r.source]}>{DNC_SOURCE_SHORT[r.source]}</span> },
    { key: 'note', header: 'note', render: (r) => <span data-testid="row-note">{r.note}</span> },
    { key: 'created_at', header: 'created_at', width: '120px', render: (r) => formatViDay(r.created_at) },
  ],
  filters: [selectFilter({ key: 'source', ns: NS, label: 'dnc.fields.source', all: 'dnc.allSources', testId: 'dnc-source-filter', useOptions: () => sources })],
  api: crudResource({ scope: DNC_SCOPE, name: 'dnc', base: DNC_API.list, client: tenantApi }),
  rowName: (r) => r.number,
});
