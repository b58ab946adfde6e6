import * as v from 'valibot';
import { Badge } from '@fluentui/react-components';
import {
  DATE_PRESETS, FEATURES, OTP_LIST_PRESETS, OTP_SCOPE_LABELS, OTP_SCOPES, OTP_STATUSES, OTP_STATUS_LABELS, OtpKeyInputSchema, PERM, dialogPaths, listPaths, screens,
  type OtpKey, type OtpListRow, type OtpStatus,
} from '@tongdai/contracts';
import { defineEntity, formatDuration, formatViDateTime, selectFilter } from '@tongdai/ui';
import '../telecom/fieldKinds';
import { OTP_NS } from './i18n';
import { downloadOtpList, otpKeyResource, otpRequestResource, useOtpKeys } from './voice-otp.api';

const STATUS_COLORS: Record<OtpStatus, 'success' | 'danger' | 'warning' | 'informative' | 'subtle' | 'brand'> = {
  queued: 'subtle', calling: 'informative', answered: 'informative', completed: 'brand', no_answer: 'warning', busy: 'warning', failed: 'danger',
  approved: 'success', expired: 'subtle',
};
const when = (iso: string) => formatViDateTime(iso);

export function OtpStatusBadge({ status }: { status: OtpStatus }) {
  return <Badge appearance="tint" color={STATUS_COLORS[status]} data-testid="otp-status" data-status={status}>{OTP_STATUS_LABELS[status]}</Badge>;
}

const filters = [
  selectFilter({
    key: 'preset', ns: OTP_NS, label: 'request.presetFilter', all: 'request.allTime', testId: 'otp-preset-filter',
    useOptions: () => OTP_LIST_PRESETS.map((p) => ({ value: p, label: DATE_PRESETS[p] })),
  }),
  selectFilter({
    key: 'status', ns: OTP_NS, label: 'request.statusFilter', all: 'request.allStatuses', testId: 'otp-status-filter',
    useOptions: () => OTP_STATUSES.map((s) => ({ value: s, label: OTP_STATUS_LABELS[s] })),
  }),
  selectFilter({
    key: 'key_id', ns: OTP_NS, label: 'request.keyFilter', all: 'request.allKeys', testId: 'otp-key-filter',
    useOptions: () => useOtpKeys().data?.map((k) => ({ value: k.id, label: k.name })) ?? [],
  }),
];

/**
 * /voice-otp/list (issue 35): the tenant's verification requests, newest first; read-only. A row's id
 * is the verification's uuid (the kit keys rows by it and never edits or deletes one here).
 */
export const otpRequestEntity = defineEntity<Omit<OtpListRow, 'id'> & { id: number }>({
  key: 'otp-request', ns: OTP_NS, prefix: 'request', paths: listPaths(screens.voiceOtpList), permission: { view: PERM.otp.view }, feature: FEATURES.voiceOtp,
  schema: v.object({}), fields: [],
  api: otpRequestResource,
  export: { permission: PERM.otp.view, run: () => downloadOtpList('xlsx') },
  rowName: (r) => r.phone,
  filters,
  columns: [
    { key: 'created_at', header: 'created_at', render: (r) => <span data-testid="otp-time">{when(r.created_at)}</span> },
    { key: 'phone', header: 'phone', width: '130px', render: (r) => <span data-testid="otp-phone">{r.phone}</span> },
    { key: 'key_name', header: 'key_name', render: (r, c) => <span data-testid="otp-key">{r.key_name ?? c.t('request.testCall')}</span> },
    { key: 'status', header: 'status', render: (r) => <OtpStatusBadge status={r.status} /> },
    { key: 'call_duration_s', header: 'call_duration_s', render: (r) => <span data-testid="otp-duration">{r.call_duration_s === null ? '—' : formatDuration(r.call_duration_s)}</span> },
    { key: 'checks', header: 'checks', render: (r) => <span data-testid="otp-checks">{r.checks}</span> },
  ],
});

/** The API keys on /voice-otp/number: added and renamed in a dialog, revoked from the row (never deleted: their requests name them). */
export const otpKeyEntity = defineEntity<OtpKey>({
  key: 'otp-key', ns: OTP_NS, prefix: 'key', paths: dialogPaths(screens.voiceOtpNumber),
  permission: { view: PERM.otp.manage, create: PERM.otp.manage, edit: PERM.otp.manage }, feature: FEATURES.voiceOtp,
  schema: OtpKeyInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    // Voice-OTP's scopes only: a CRM's keys are made on /integrations (ADR 0065).
    { name: 'scopes', kind: 'checks', options: Object.fromEntries(OTP_SCOPES.map((s) => [s, OTP_SCOPE_LABELS[s]])), required: true },
    { name: 'retry_after_s', kind: 'int', unit: 'pbx:seconds' },
    { name: 'webhook_url', kind: 'text' },
  ],
  api: otpKeyResource,
  rowName: (k) => k.name,
  columns: [
    { key: 'name', header: 'name', render: (k) => <strong data-testid="row-name">{k.name}</strong> },
    { key: 'prefix', header: 'prefix', render: (k) => <code data-testid="key-prefix">{k.prefix}</code> },
    { key: 'last_used_at', header: 'last_used_at', render: (k, c) => <span data-testid="key-last-used">{k.last_used_at ? when(k.last_used_at) : c.t('key.neverUsed')}</span> },
    { key: 'webhook', header: 'webhook', render: (k, c) => <WebhookState k={k} t={c.t} /> },
    {
      key: 'state', header: 'state', render: (k, c) => (
        <Badge appearance="tint" color={k.revoked_at ? 'danger' : 'success'} data-testid="key-state" data-revoked={String(k.revoked_at !== null)}>
          {k.revoked_at ? c.t('key.revokedAt', { at: when(k.revoked_at) }) : c.t('key.active')}
        </Badge>
      ),
    },
  ],
});

/** The key's webhook, short enough for its column: none, not tried yet, or how its last delivery went (the URL and time in its tooltip). */
function WebhookState({ k, t }: { k: OtpKey; t: (key: string, o?: Record<string, unknown>) => string }) {
  if (!k.webhook_url) return <span data-testid="key-webhook" data-state="none">{t('key.webhookNone')}</span>;
  const last = k.webhook_last;
  const state = last ? (last.delivered ? 'delivered' : 'failing') : 'waiting';
  const title = last ? `${k.webhook_url} · ${when(last.at)}` : k.webhook_url;
  return (
    <Badge appearance="tint" color={state === 'delivered' ? 'success' : state === 'failing' ? 'danger' : 'informative'} data-testid="key-webhook" data-state={state} title={title}>
      {state === 'delivered' ? t('key.webhookDelivered') : state === 'failing' ? t('key.webhookFailed', { status: last!.status || '—' }) : t('key.webhookWaiting')}
    </Badge>
  );
}
