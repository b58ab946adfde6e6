import { DESTINATION_LABELS, InboundInputSchema, PBX_RESOURCES, PERM, type Inbound } from '@tongdai/contracts';
import { descCol } from '../shared/columns';
import type { PbxEntity } from '../shared/entity';
import { codeCompany, type PbxEndpoints } from '../shared/pbx.api';
import { INBOUNDS_NS } from './i18n';
import { inboundPaths } from './inbounds.routes';

/** The exact SPEC §7 inbound paths (the API serves them as aliases of /partner/inbound). */
export const inboundEndpoints: PbxEndpoints = {
  resource: PBX_RESOURCES.inbound,
  list: () => `partner/inbound/john/incoming/${encodeURIComponent(codeCompany())}`,
  one: (id) => `inbound/john/incoming/detail/${id}/${encodeURIComponent(codeCompany())}`,
  create: () => 'partner/inbound',
  update: (id) => `partner/inbound/${id}`,
  remove: (id) => `partner/incoming/${id}`,
};

/** An inbound route: calls to a DID (optionally only from matching callers) go to a destination. */
export const inboundEntity: PbxEntity<Inbound> = {
  key: 'inbound', ns: INBOUNDS_NS, resource: inboundEndpoints, perm: PERM.inbound, paths: inboundPaths, destinationFilter: true,
  schema: InboundInputSchema,
  fields: [
    { name: 'did', kind: 'did', required: true },
    { name: 'caller_pattern', kind: 'text', hint: true },
    { name: 'destination', kind: 'destination', required: true },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'did', header: 'did', render: (r) => <strong data-testid="row-name">{r.did}</strong> },
    { key: 'caller_pattern', header: 'caller_pattern', render: (r, c) => r.caller_pattern || c.t('anyCaller') },
    // The API names the target (destination_name); the type label says what kind of object it is.
    {
      key: 'destination', header: 'destination', render: (r, c) => {
        const text = r.destination_name ? `${DESTINATION_LABELS[r.destination.type]}: ${r.destination_name}` : c.describe(r.destination);
        return <span data-testid="row-destination" title={text}>{text}</span>;
      },
    },
    descCol(),
  ],
  rowName: (r) => (r.caller_pattern ? `${r.did} (${r.caller_pattern})` : r.did),
};
