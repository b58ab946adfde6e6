import * as v from 'valibot';
import { Badge } from '@fluentui/react-components';
import {
  CALL_DELIVERY_STATUS_LABELS, CALL_WEBHOOK_EVENT_LABELS, CRM_SCOPES, IntegrationKeyInputSchema, OTP_SCOPE_LABELS, PERM, paths,
  type CallDelivery, type CallDeliveryStatus, type OtpKey,
} from '@tongdai/contracts';
import { defineEntity, selectFilter } from '@tongdai/ui';
import { INTEGRATIONS_NS } from './i18n';
import { callDeliveryResource, crmKeyResource, useCrmKeys } from './integrations.api';

const when = (iso: string) => new Date(iso).toLocaleString('vi-VN', { timeZone: 'Asia/Ho_Chi_Minh' });
const manage = PERM.integrations.manage;

/** /integrations: the tenant's API keys that hold a CRM scope; made in a dialog, revoked from the row (never deleted). */
export const crmKeyEntity = defineEntity<OtpKey>({
  key: 'crm-key', ns: INTEGRATIONS_NS, prefix: 'key', paths: paths.crmKey,
  permission: { view: manage, create: manage },
  schema: IntegrationKeyInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'scopes', kind: 'checks', options: Object.fromEntries(CRM_SCOPES.map((s) => [s, OTP_SCOPE_LABELS[s]])), required: true },
    { name: 'webhook_url', kind: 'text' },
  ],
  api: crmKeyResource,
  rowName: (k) => k.name,
  columns: [
    { key: 'name', header: 'name', render: (k) => <strong data-testid="row-name">{k.name}</strong> },
    { key: 'prefix', header: 'prefix', render: (k) => <code data-testid="key-prefix">{k.prefix}</code> },
    { key: 'scopes', header: 'scopes', render: (k) => <span data-testid="key-scopes">{k.scopes.map((s) => OTP_SCOPE_LABELS[s]).join(', ')}</span> },
    { key: 'webhook', header: 'webhook', render: (k, c) => <span data-testid="key-webhook" style={{ wordBreak: 'break-all' }}>{k.webhook_url ?? c.t('key.webhookNone')}</span> },
    {
      key: 'state', header: 'state', render: (k, c) => (
        <Badge appearance="tint" color={k.revoked_at ? 'danger' : 'success'} data-testid="key-state" data-revoked={String(k.revoked_at !== null)}>
          {k.revoked_at ? c.t('key.revokedAt', { at: when(k.revoked_at) }) : c.t('key.active')}
        </Badge>
      ),
    },
  ],
});

const STATUS_COLORS: Record<CallDeliveryStatus, 'success' | 'warning' | 'danger'> = { delivered: 'success', retrying: 'warning', given_up: 'danger' };

/** /webhook-deliveries: what was sent to the CRM keys' webhooks, newest first; read-only, a key's own with ?key_id=. */
export const callDeliveryEntity = defineEntity<CallDelivery>({
  key: 'call-delivery', ns: INTEGRATIONS_NS, prefix: 'delivery', paths: paths.webhookDelivery, permission: { view: manage },
  schema: v.object({}), fields: [],
  api: callDeliveryResource,
  rowName: (d) => d.call_id,
  filters: [
    selectFilter({
      key: 'key_id', ns: INTEGRATIONS_NS, label: 'delivery.keyFilter', all: 'delivery.allKeys', testId: 'delivery-key-filter',
      useOptions: () => useCrmKeys().data?.map((k) => ({ value: k.id, label: k.name })) ?? [],
    }),
  ],
  columns: [
    { key: 'created_at', header: 'created_at', render: (d) => <span data-testid="delivery-time">{when(d.created_at)}</span> },
    { key: 'key_name', header: 'key_name', render: (d) => <span data-testid="delivery-key">{d.key_name}</span> },
    { key: 'event', header: 'event', render: (d) => <span data-testid="delivery-event" data-event={d.event}>{CALL_WEBHOOK_EVENT_LABELS[d.event]}</span> },
    { key: 'call_id', header: 'call_id', render: (d) => <code data-testid="delivery-call" style={{ wordBreak: 'break-all' }}>{d.call_id}</code> },
    {
      key: 'status', header: 'status', render: (d) => (
        <Badge appearance="tint" color={STATUS_COLORS[d.status]} data-testid="delivery-status" data-status={d.status}>{CALL_DELIVERY_STATUS_LABELS[d.status]}</Badge>
      ),
    },
    { key: 'attempts', header: 'attempts', render: (d) => <span data-testid="delivery-attempts">{d.attempts}</span> },
    { key: 'last', header: 'last', render: (d, c) => <span data-testid="delivery-last">{d.last_status ? `HTTP ${d.last_status}` : d.attempts ? (d.last_error ?? c.t('delivery.noAnswer')) : '—'}</span> },
    { key: 'next_at', header: 'next_at', render: (d) => <span data-testid="delivery-next">{d.next_at ? when(d.next_at) : '—'}</span> },
  ],
});
