import { normaliseProvider, type PaymentCheck, type RecordingMode, type RecordingSettings, type SystemSetting, type SystemSettingInput } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

const DEFAULT_SETTING: SystemSetting = { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 };

/** A tenant without a row gets the defaults of the seed (0, 0, 1, provider 1). */
export async function getSystemSetting(tx: Queryable): Promise<SystemSetting> {
  const { rows } = await tx.query<Omit<SystemSetting, 'voice_over_internet_protocol'> & { voice_over_internet_protocol: string }>(
    'select hidden_phone_customer, position_hidden_phone_customer, show_popup_customer, voice_over_internet_protocol from system_settings',
  );
  const row = rows[0];
  return row ? { ...row, voice_over_internet_protocol: normaliseProvider(row.voice_over_internet_protocol) } : DEFAULT_SETTING;
}

/** No row means nothing purchased (isFeatureEnabled treats null that way). */
export async function getPaymentCheck(tx: Queryable): Promise<PaymentCheck | null> {
  const { rows } = await tx.query<PaymentCheck>(
    `select feature_name_data, to_char(date_expired, 'YYYY-MM-DD') as date_expired from payment_checks`,
  );
  return rows[0] ?? null;
}

/** One row per tenant: insert the first time, update afterwards. */
export async function upsertSystemSetting(tx: Queryable, tenantId: number, s: SystemSettingInput): Promise<SystemSetting> {
  await tx.query(
    `insert into system_settings (tenant_id, hidden_phone_customer, position_hidden_phone_customer, show_popup_customer, voice_over_internet_protocol)
     values ($1, $2, $3, $4, $5)
     on conflict (tenant_id) do update set hidden_phone_customer = excluded.hidden_phone_customer,
       position_hidden_phone_customer = excluded.position_hidden_phone_customer,
       show_popup_customer = excluded.show_popup_customer, voice_over_internet_protocol = excluded.voice_over_internet_protocol`,
    [tenantId, s.hidden_phone_customer, s.position_hidden_phone_customer, s.show_popup_customer, String(s.voice_over_internet_protocol)],
  );
  return getSystemSetting(tx);
}

/** Call recording (issue 16): the tenant's mode and retention; no row: nothing recorded, kept forever. */
export async function getRecordingSettings(tx: Queryable): Promise<RecordingSettings> {
  const { rows } = await tx.query<{ recording_mode: RecordingMode; recording_retention_days: number | null; monitor_calls: boolean }>(
    'select recording_mode, recording_retention_days, monitor_calls from system_settings',
  );
  const r = rows[0];
  return r ? { recording_mode: r.recording_mode, retention_days: r.recording_retention_days, monitor_calls: r.monitor_calls } : { recording_mode: 'none', retention_days: null, monitor_calls: false };
}

/** Writes only the recording columns (a tenant without a row gets the other settings' defaults). */
export async function saveRecordingSettings(tx: Queryable, tenantId: number, s: RecordingSettings): Promise<RecordingSettings> {
  await tx.query(
    `insert into system_settings (tenant_id, recording_mode, recording_retention_days, monitor_calls) values ($1, $2, $3, $4)
     on conflict (tenant_id) do update set recording_mode = excluded.recording_mode, recording_retention_days = excluded.recording_retention_days,
       monitor_calls = excluded.monitor_calls`,
    [tenantId, s.recording_mode, s.retention_days, s.monitor_calls ?? false],
  );
  return getRecordingSettings(tx);
}

/** Every tenant that keeps recordings for a limited time (withSystem: across tenants, for the retention sweep). */
export async function recordingRetentions(tx: Queryable): Promise<{ tenantId: number; days: number }[]> {
  const { rows } = await tx.query<{ tenant_id: number; days: number }>(
    'select tenant_id, recording_retention_days as days from system_settings where recording_retention_days is not null order by tenant_id',
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, days: r.days }));
}
