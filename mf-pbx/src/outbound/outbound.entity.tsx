import { Badge } from '@fluentui/react-components';
import { CALLER_ID_MODE_LABELS, type OutboundRule, OutboundRuleInputSchema, paths, PBX_RESOURCES, PERM } from '@tongdai/contracts';
import { nameCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import '../telecom/fieldKinds';
import { formatHotline } from '../telecom/hotlineNumber';
import { useSwitchboardsAll } from '../telecom/telecom.api';
import { OUTBOUND_NS } from './i18n';

/** The rule's switchboards by name, in failover order ("Viettel 1 → VNPT"); a rule from before switchboards shows its trunk. */
function SwitchboardNames({ rule }: { rule: OutboundRule }) {
  const { data } = useSwitchboardsAll();
  const names = rule.switchboard_ids.map((id) => data?.find((s) => s.id === id)?.name ?? `#${id}`);
  return <span style={wrap} data-testid="row-trunk">{names.length ? names.join(' → ') : rule.trunk || '—'}</span>;
}

// List cells truncate; a pattern cut short reads as another pattern, so these wrap.
const wrap = { whiteSpace: 'normal', display: 'block', padding: '6px 0' } as const;

/**
 * An outbound rule: dialled numbers matching the pattern are rewritten (strip, prepend) and sent
 * through its switchboards in order (failover to the next), showing one of the tenant's hotlines
 * as caller id; rules are tried in priority order (the API lists them so). Delete is
 * DELETE /partner/rule/{id} (SPEC §7), the generic path of the `rule` resource.
 */
export const outboundEntity = pbxEntity<OutboundRule>({
  key: 'outbound', ns: OUTBOUND_NS, resource: PBX_RESOURCES.outbound, permission: PERM.outbound, paths: paths.outbound,
  schema: OutboundRuleInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'pattern', kind: 'text', required: true, hint: true },
    { name: 'strip', kind: 'int' },
    { name: 'prepend', kind: 'tel', hint: true },
    { name: 'switchboard_ids', kind: 'switchboards', required: true },
    { name: 'caller_id', kind: 'hotline' },
    { name: 'caller_id_mode', kind: 'radio', options: CALLER_ID_MODE_LABELS },
    { name: 'priority', kind: 'int' },
    { name: 'allow_international', kind: 'switch', states: 'onOff' },
    { name: 'allow_premium', kind: 'switch', states: 'onOff' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'priority', header: 'order', render: (r) => String(r.priority) },
    nameCol(),
    { key: 'pattern', header: 'pattern', render: (r) => <code style={{ ...wrap, wordBreak: 'break-all' }} data-testid="row-pattern">{r.pattern}</code> },
    {
      key: 'rewrite', header: 'rewrite', render: (r, c) => (
        <span style={wrap}>
          {[r.strip > 0 ? c.t('strip', { count: r.strip }) : '', r.prepend ? c.t('prepend', { prepend: r.prepend }) : ''].filter(Boolean).join(', ') || c.t('unchanged')}
        </span>
      ),
    },
    { key: 'trunk', header: 'trunk', render: (r) => <SwitchboardNames rule={r} /> },
    { key: 'caller_id', header: 'caller_id', render: (r) => <span data-testid="row-caller-id">{r.caller_id ? formatHotline(r.caller_id) : '—'}</span> },
    {
      key: 'allowed', header: 'allowed', render: (r, c) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {r.allow_international && <Badge appearance="tint" color="warning" data-testid="flag-international">{c.t('international')}</Badge>}
          {r.allow_premium && <Badge appearance="tint" color="danger" data-testid="flag-premium">{c.t('premium')}</Badge>}
          {!r.allow_international && !r.allow_premium && '—'}
        </span>
      ),
    },
  ],
  rowName: (r) => r.name,
});
