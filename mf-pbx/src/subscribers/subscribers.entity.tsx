import { FEATURES, MONITOR_LABELS, PERM, SubscriberInputSchema, paths, type Subscriber } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, formatViDateTime, type FieldDef } from '@tongdai/ui';
import '../shared/fieldKinds';
import { recordingCol, recordingModeField } from '../shared/recording';
import { SUBSCRIBERS_NS } from './i18n';


/**
 * An extension's ring time, recording mode and mailbox (issue 16), drawn by the kit under the
 * form's own fields; the mailbox's settings show while it is on.
 */
const mailboxOn = (d: Record<string, unknown>) => d.voicemail_enabled === true;
export const MAILBOX_FIELDS: FieldDef[] = [
  { name: 'ring_time', kind: 'int', unit: 'pbx:seconds' },
  recordingModeField,
  { name: 'voicemail_enabled', kind: 'switch', states: 'onOff' },
  { name: 'voicemail_pin', kind: 'tel', when: mailboxOn },
  { name: 'voicemail_greeting_id', kind: 'greeting', when: mailboxOn },
  { name: 'voicemail_max_seconds', kind: 'int', unit: 'pbx:seconds', when: mailboxOn },
];

/** A new extension's form: the mailbox on, as the API creates it (migration 0046); switched off on the form. */
export const NEW_SUBSCRIBER = { voicemail_enabled: true };

/**
 * Subscribers (máy nhánh) on the tenant API: the list is the kit's; the form screen is its own
 * (extension fixed once created, password shown once, reset) over the kit's draft of these fields.
 */
export const subscriberEntity = defineEntity<Subscriber>({
  key: 'subscriber', ns: SUBSCRIBERS_NS, paths: paths.subscriber, permission: PERM.subscriber, feature: FEATURES.pbx,
  schema: SubscriberInputSchema,
  // user_id: the linked account as a select value ("" = none).
  fields: [{ name: 'extension', kind: 'tel', required: true }, { name: 'display_name', kind: 'text', required: true }, { name: 'user_id', kind: 'text' }, ...MAILBOX_FIELDS],
  api: crudResource({ scope: 'subscribers', name: 'subscribers', base: 'subscribers', client: tenantApi }),
  rowName: (s) => `${s.extension} (${s.display_name})`,
  columns: [
    { key: 'extension', header: 'extension', render: (s) => <strong data-testid="subscriber-extension">{s.extension}</strong> },
    { key: 'display_name', header: 'display_name', render: (s) => <span data-testid="subscriber-name">{s.display_name}</span> },
    { key: 'user', header: 'user_id', render: (s) => <span data-testid="subscriber-user">{s.user_name ?? '—'}</span> },
    // Whether a phone is registered with it now (the wall's words).
    { key: 'registered', header: 'registered', render: (s) => <span data-testid="subscriber-registered" data-registered={!!s.registered}>{s.registered ? MONITOR_LABELS.registered : MONITOR_LABELS.offline}</span> },
    recordingCol(),
    { key: 'created_at', header: 'created_at', render: (s) => formatViDateTime(s.created_at, { seconds: false }) },
  ],
});
