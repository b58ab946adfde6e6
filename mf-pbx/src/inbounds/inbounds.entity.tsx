import { DESTINATION_LABELS, type Inbound, InboundInputSchema, paths, PBX_RESOURCES, PERM } from '@tongdai/contracts';
import { descCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { DestinationText } from '../shared/columns';
import { destinationFilter } from '../shared/destinationFilter';
import { pbxResource } from '../shared/entity';
import { codeCompany } from '../shared/pbx.api';
import { INBOUNDS_NS } from './i18n';

/** The exact SPEC §7 inbound paths (the API serves them as aliases of /partner/inbound). */
export const inboundResource = pbxResource(PBX_RESOURCES.inbound, {
  list: () => `partner/inbound/john/incoming/${encodeURIComponent(codeCompany())}`,
  one: (id) => `inbound/john/incoming/detail/${id}/${encodeURIComponent(codeCompany())}`,
  create: () => 'partner/inbound',
  update: (id) => `partner/inbound/${id}`,
  remove: (id) => `partner/incoming/${id}`,
});

/** An inbound route: calls to a DID (optionally only from matching callers) go to a destination. */
export const inboundEntity = pbxEntity<Inbound>({
  key: 'inbound', ns: INBOUNDS_NS, resource: inboundResource, permission: PERM.inbound, paths: paths.inbound, filters: [destinationFilter],
  schema: InboundInputSchema,
  fields: [
    { name: 'did', kind: 'did', required: true },
    { name: 'caller_pattern', kind: 'text', hint: true },
    { name: 'destination', kind: 'destination', required: true },
    // Post-call CSAT (issue 34, ADR 0056): once the person the call reached hangs up, the caller is asked for a key 1–5.
    { name: 'csat', kind: 'switch', states: 'onOff', hint: true },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'did', header: 'did', render: (r) => <strong data-testid="row-name">{r.did}</strong> },
    { key: 'caller_pattern', header: 'caller_pattern', render: (r, c) => r.caller_pattern || c.t('anyCaller') },
    // The API names the target (destination_name); the type label says what kind of object it is.
    {
      key: 'destination', header: 'destination', render: (r) => (
        <DestinationText testId="row-destination" get={(describe) => (r.destination_name ? `${DESTINATION_LABELS[r.destination.type]}: ${r.destination_name}` : describe(r.destination))} />
      ),
    },
    descCol(),
  ],
  rowName: (r) => (r.caller_pattern ? `${r.did} (${r.caller_pattern})` : r.did),
});
