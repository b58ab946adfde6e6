import { Badge, Caption1 } from '@fluentui/react-components';
import {
  CALLER_ID_FORMAT_LABELS, FEATURES, PERM, SWITCHBOARD_CARRIER_NAMES, SWITCHBOARD_CODECS, SWITCHBOARD_STATUS_LABELS, SWITCHBOARD_TRANSPORTS, SwitchboardInputSchema, screens,
  dialogPaths, type Switchboard, type SwitchboardStatus,
} from '@tongdai/contracts';
import { defineEntity } from '@tongdai/ui';
import './fieldKinds';
import { TELECOM_NS } from './i18n';
import { switchboardResource } from './telecom.api';

const STATUS_COLORS: Record<SwitchboardStatus, 'success' | 'danger' | 'warning' | 'informative' | 'subtle'> = {
  registered: 'success', failed: 'danger', pending: 'warning', ip: 'informative', disabled: 'subtle', blocked: 'danger',
};
/** Statuses whose reason the tenant needs under the badge: the carrier's answer, or why it is blocked. */
const WITH_REASON = new Set<SwitchboardStatus>(['failed', 'blocked']);
const listed = (xs: readonly string[]) => Object.fromEntries(xs.map((x) => [x, x]));
const TRANSPORTS = Object.fromEntries(SWITCHBOARD_TRANSPORTS.map((x) => [x, x.toUpperCase()]));

// List cells truncate; these wrap so a name, an address or a status reads whole.
export const wrap = { whiteSpace: 'normal', display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2, padding: '6px 0', wordBreak: 'break-word' } as const;

/** The live status: a badge, and the reason under it when registration failed or the host is refused (blocked). */
export function SwitchboardStatusBadge({ status, reason }: { status: SwitchboardStatus; reason?: string }) {
  return (
    <span style={wrap}>
      <Badge appearance="tint" color={STATUS_COLORS[status]} style={{ whiteSpace: 'normal', height: 'auto' }} data-testid="row-status" data-status={status}>
        {SWITCHBOARD_STATUS_LABELS[status]}
      </Badge>
      {WITH_REASON.has(status) && reason && <Caption1 data-testid="row-status-reason" style={{ whiteSpace: 'normal' }}>{reason}</Caption1>}
    </span>
  );
}

/**
 * /etelecom/switchboards: the tenant's carrier connections (SIP trunks), added and edited in a
 * dialog on the list like the other PBX lists. The password is write-only: the API never sends it
 * (a row says has_password) and an empty one on edit keeps the stored one. The list refetches
 * every few seconds: the status and channels in use are live.
 */
export const switchboardEntity = defineEntity<Switchboard>({
  key: 'switchboard', ns: TELECOM_NS, prefix: 'switchboard', feature: FEATURES.pbx, permission: PERM.telecom,
  paths: dialogPaths(screens.etelecomSwitchboards),
  api: switchboardResource,
  schema: SwitchboardInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'carrier', kind: 'choice', options: SWITCHBOARD_CARRIER_NAMES },
    { name: 'host', kind: 'text', required: true },
    { name: 'port', kind: 'int' },
    { name: 'transport', kind: 'choice', options: TRANSPORTS },
    { name: 'caller_id_format', kind: 'choice', options: CALLER_ID_FORMAT_LABELS, hint: true },
    { name: 'max_channels', kind: 'int' },
    { name: 'register', kind: 'switch', states: 'onOff' },
    { name: 'register_interval', kind: 'int', unit: 'pbx:seconds', when: (d) => d.register === true },
    { name: 'auth_user', kind: 'text' },
    { name: 'auth_password', kind: 'password', keepPlaceholder: 'switchboard.keepPassword' },
    { name: 'codecs', kind: 'checks', options: listed(SWITCHBOARD_CODECS), required: true },
    { name: 'enabled', kind: 'switch' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'name', header: 'name', render: (r) => <strong style={wrap} data-testid="row-name">{r.name}</strong> },
    { key: 'carrier', header: 'carrier', render: (r) => <span style={wrap}>{SWITCHBOARD_CARRIER_NAMES[r.carrier]}</span> },
    {
      key: 'endpoint', header: 'endpoint', render: (r, c) => (
        <span style={wrap}>
          <code data-testid="row-endpoint">{`${r.host}:${r.port}/${r.transport.toUpperCase()}`}</code>
          <Caption1 data-testid="row-auth">{c.t(r.register ? 'switchboard.authRegister' : 'switchboard.authIp')}</Caption1>
        </span>
      ),
    },
    { key: 'channels', header: 'channels', render: (r) => <span data-testid="row-channels" data-used={r.channels_in_use}>{`${r.channels_in_use} / ${r.max_channels}`}</span> },
    { key: 'status', header: 'status', render: (r) => <SwitchboardStatusBadge status={r.status} reason={r.status_reason} /> },
    {
      key: 'enabled', header: 'enabled',
      render: (r, c) => <Badge appearance="tint" color={r.enabled ? 'success' : 'informative'}>{c.t(r.enabled ? 'pbx:on' : 'pbx:off')}</Badge>,
    },
  ],
  rowName: (r) => r.name,
});
