import { OTP_LIMITS, numberForms, storedSearchForm, vnDay, vnDayStart, type OtpKeyInput, type OtpListQuery, type ApiKeyScope, type OtpWebhookEvent } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { likePattern } from '../../db/sql';
import type { CallState, CallStatus, LimitCounts } from './voice-otp';

/** SQL of voice-OTP (migration 0052). Runs inside withTenant: RLS keeps every statement in its tenant. */

export interface KeyRow {
  id: number;
  name: string;
  prefix: string;
  secret_hash: Buffer;
  scopes: ApiKeyScope[];
  daily_limit: number;
  retry_after_s: number;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  /** The last delivery to its webhook (migration 0056). */
  webhook_last_status: number | null;
  webhook_last_at: Date | null;
  webhook_last_delivered: boolean | null;
}
const KEY_COLUMNS = `k.id, k.name, k.prefix, k.secret_hash, k.scopes, k.daily_limit, k.retry_after_s, k.last_used_at, k.revoked_at, k.created_at,
  k.webhook_url, k.webhook_secret_sealed, w.last_status as webhook_last_status, w.at as webhook_last_at, w.delivered as webhook_last_delivered`;
/** The key's last delivery that was tried (its index: tenant, key, id desc). */
const KEY_FROM = `otp_api_keys k left join lateral (
  select coalesce(d.last_status, 0) as last_status, coalesce(d.delivered_at, d.gave_up_at, d.created_at) as at, d.delivered_at is not null as delivered
    from otp_webhook_deliveries d where d.tenant_id = k.tenant_id and d.key_id = k.id and d.attempts > 0 order by d.id desc limit 1) w on true`;

export async function listKeys(tx: Queryable): Promise<KeyRow[]> {
  return (await tx.query<KeyRow>(`select ${KEY_COLUMNS} from ${KEY_FROM} order by k.revoked_at is not null, k.created_at desc, k.id desc`)).rows;
}

export async function getKey(tx: Queryable, id: number): Promise<KeyRow | null> {
  return (await tx.query<KeyRow>(`select ${KEY_COLUMNS} from ${KEY_FROM} where k.id = $1`, [id])).rows[0] ?? null;
}

/** What opening a key and starting with it read (every application request): the key's own row, no delivery. */
export type KeyAccess = Pick<KeyRow, 'id' | 'secret_hash' | 'scopes' | 'daily_limit' | 'last_used_at' | 'revoked_at'>;

export async function getKeyAccess(tx: Queryable, id: number): Promise<KeyAccess | null> {
  return (await tx.query<KeyAccess>('select id, secret_hash, scopes, daily_limit, last_used_at, revoked_at from otp_api_keys where id = $1', [id])).rows[0] ?? null;
}

/** The row first (its id is part of the key), then its prefix and hash once the secret is drawn. */
export async function insertKey(tx: Queryable, tenantId: number, k: OtpKeyInput, userId: number | null): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into otp_api_keys (tenant_id, name, prefix, secret_hash, scopes, retry_after_s, webhook_url, created_by) values ($1, $2, '', '\\x'::bytea, $3, $4, nullif($5, ''), $6) returning id`,
    [tenantId, k.name, k.scopes, k.retry_after_s, k.webhook_url, userId],
  );
  return rows[0].id;
}

export async function setKeySecret(tx: Queryable, id: number, prefix: string, hash: Buffer): Promise<void> {
  await tx.query('update otp_api_keys set prefix = $2, secret_hash = $3 where id = $1', [id, prefix, hash]);
}

export async function updateKey(tx: Queryable, id: number, k: OtpKeyInput): Promise<boolean> {
  const { rows } = await tx.query(
    `update otp_api_keys set name = $2, scopes = $3, retry_after_s = $4, webhook_url = nullif($5, ''), updated_at = now() where id = $1 returning id`,
    [id, k.name, k.scopes, k.retry_after_s, k.webhook_url],
  );
  return rows.length === 1;
}

export async function setWebhookSecret(tx: Queryable, id: number, sealed: string): Promise<boolean> {
  const { rows } = await tx.query('update otp_api_keys set webhook_secret_sealed = $2, updated_at = now() where id = $1 and revoked_at is null returning id', [id, sealed]);
  return rows.length === 1;
}

export async function revokeKey(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('update otp_api_keys set revoked_at = coalesce(revoked_at, now()), updated_at = now() where id = $1 returning id', [id]);
  return rows.length === 1;
}

export async function touchKey(tx: Queryable, id: number, at: Date): Promise<void> {
  await tx.query('update otp_api_keys set last_used_at = $2 where id = $1', [id, at]);
}

/**
 * Serialises the starts of one tenant (two instances, two requests for one number), so the limits'
 * counts and the insert that follows them are one step: a transaction-scoped advisory lock.
 */
export async function lockTenantStarts(tx: Queryable, tenantId: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(52035, $1)', [tenantId]);
}

export async function limitCounts(tx: Queryable, keyId: number | null, number: string, now: Date, keyDailyLimit: number): Promise<LimitCounts> {
  const windowStart = new Date(now.getTime() - OTP_LIMITS.perNumberWindowMin * 60_000);
  const dayStart = vnDayStart(vnDay(now))!;
  const { rows } = await tx.query<{ number_recent: number; key_today: number; tenant_today: number }>(
    `select count(*) filter (where phone = $2 and created_at > $3)::int as number_recent,
            count(*) filter (where key_id = $1 and created_at >= $4)::int as key_today,
            count(*) filter (where created_at >= $4)::int as tenant_today
       from otp_verifications where created_at >= least($3, $4)`,
    [keyId, number, windowStart, dayStart],
  );
  const r = rows[0];
  return { numberRecent: r.number_recent, keyToday: r.key_today, tenantToday: r.tenant_today, keyDailyLimit };
}

/** On the tenant's blocked-outgoing list (exact, or a prefix of one of the number's forms). */
export async function isBlockedOut(tx: Queryable, number: string): Promise<boolean> {
  const forms = numberForms(number);
  const { rows } = await tx.query(
    `select 1 from pbx_blocked_numbers b where b.direction = 'out'
        and ((b.match = 'exact' and b.number = any($1)) or (b.match = 'prefix' and exists (select 1 from unnest($1::text[]) f where f like b.number || '%')))
      limit 1`,
    [forms],
  );
  return rows.length > 0;
}

export async function hasEnabledHotline(tx: Queryable): Promise<boolean> {
  const { rows } = await tx.query('select 1 from pbx_numbers where otp_enabled and active and switchboard_id is not null limit 1');
  return rows.length > 0;
}

export interface VerificationRow {
  id: string;
  key_id: number | null;
  phone: string;
  code: string;
  call_status: CallStatus;
  call_duration_s: number | null;
  checks: number;
  approved_at: Date | null;
  expires_at: Date;
  created_at: Date;
}
const V_COLUMNS = 'id, key_id, phone, code, call_status, call_duration_s, checks, approved_at, expires_at, created_at';

export async function insertVerification(
  tx: Queryable, tenantId: number, v: { keyId: number | null; phone: string; code: string; template: string; expiresAt: Date; now: Date; startedBy?: number | null },
): Promise<VerificationRow> {
  const { rows } = await tx.query<VerificationRow>(
    // Due for its call at once (next_call_at): the job's claim (slice 2, ADR 0052) reads it.
    `insert into otp_verifications (tenant_id, key_id, phone, code, template, expires_at, created_at, updated_at, next_call_at, started_by)
     values ($1, $2, $3, $4, $5, $6, $7, $7, $7, $8) returning ${V_COLUMNS}`,
    [tenantId, v.keyId, v.phone, v.code, v.template, v.expiresAt, v.now, v.startedBy ?? null],
  );
  return rows[0];
}

/**
 * One moment of the timeline; a status (not a check) is also a webhook delivery when the key has a
 * URL (migration 0056), written in the same transaction: the change and its notice commit together.
 */
export async function addEvent(tx: Queryable, tenantId: number, verificationId: string, status: string, at: Date, detail = ''): Promise<void> {
  const { rows } = await tx.query<{ id: string }>(
    'insert into otp_events (tenant_id, verification_id, status, detail, at) values ($1, $2, $3, $4, $5) returning id',
    [tenantId, verificationId, status, detail, at],
  );
  if (status === 'check') return;
  const hook = (
    await tx.query<{ key_id: number; phone: string }>(
      `select v.key_id, v.phone from otp_verifications v join otp_api_keys k on k.tenant_id = v.tenant_id and k.id = v.key_id
        where v.tenant_id = $1 and v.id = $2 and k.webhook_url is not null and k.revoked_at is null`,
      [tenantId, verificationId],
    )
  ).rows[0];
  if (!hook) return;
  const body: OtpWebhookEvent = {
    type: 'verification.status', event_id: Number(rows[0].id), verification_id: verificationId, status: status as OtpWebhookEvent['status'], detail, at: at.toISOString(), phone: hook.phone,
  };
  await tx.query('insert into otp_webhook_deliveries (tenant_id, key_id, verification_id, body, next_at) values ($1, $2, $3, $4, $5)', [
    tenantId, hook.key_id, verificationId, JSON.stringify(body), at,
  ]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the KEY's verifications (another key's, even of the same tenant, is not found); `lock` for a check. */
export async function getVerification(tx: Queryable, keyId: number, id: string, lock = false): Promise<VerificationRow | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await tx.query<VerificationRow>(`select ${V_COLUMNS} from otp_verifications where id = $1 and key_id = $2${lock ? ' for update' : ''}`, [id, keyId]);
  return rows[0] ?? null;
}

export async function recordCheck(tx: Queryable, id: string, approve: boolean, at: Date): Promise<void> {
  await tx.query(`update otp_verifications set checks = checks + 1, approved_at = case when $2 then $3::timestamptz end, updated_at = $3 where id = $1`, [id, approve, at]);
}

/**
 * A verification and its timeline read by one statement, so one snapshot: read by two, under read
 * committed, a call's outcome committed between them gave the status before it and the timeline
 * after it ('calling' beside a last 'no_answer': otp-calls.integration, ci1 of the thirty-ninth session).
 */
export async function verificationWithTimeline(tx: Queryable, keyId: number, id: string): Promise<(VerificationRow & { timeline: { status: string; at: Date; detail: string }[] }) | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await tx.query<VerificationRow & { timeline: { status: string; at: string; detail: string }[] }>(
    `select ${V_COLUMNS},
            coalesce((select json_agg(json_build_object('status', e.status, 'at', e.at, 'detail', e.detail) order by e.at, e.id)
                        from otp_events e where e.verification_id = otp_verifications.id), '[]') as timeline
       from otp_verifications where id = $1 and key_id = $2`,
    [id, keyId],
  );
  const row = rows[0];
  return row ? { ...row, timeline: row.timeline.map((e) => ({ ...e, at: new Date(e.at) })) } : null;
}

export interface ListRow extends VerificationRow {
  key_name: string | null;
}

export async function listVerifications(tx: Queryable, q: OtpListQuery, statusWhere: string | null, now: Date): Promise<{ rows: ListRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.from) where.push(`v.created_at >= $${params.push(vnDayStart(q.from))}`);
  if (q.to) where.push(`v.created_at < $${params.push(new Date(vnDayStart(q.to)!.getTime() + 86_400_000))}`);
  if (q.key_id !== '') where.push(`v.key_id = $${params.push(q.key_id)}`);
  if (q.search) {
    // "0914…" / "+84914…" is the start of a stored 84… number; other digits anywhere in it.
    const start = storedSearchForm(q.search);
    where.push(start ? `v.phone like $${params.push(`${start}%`)}` : `v.phone like $${params.push(likePattern(q.search.replace(/\D/g, '')))}`);
  }
  if (statusWhere) where.push(statusWhere.includes('$now') ? statusWhere.replaceAll('$now', `$${params.push(now)}`) : statusWhere);
  const sql = `from otp_verifications v left join otp_api_keys k on k.id = v.key_id ${where.length ? `where ${where.join(' and ')}` : ''}`;
  const total = (await tx.query<{ n: number }>(`select count(*)::int as n ${sql}`, params)).rows[0].n;
  const { rows } = await tx.query<ListRow>(
    `select ${V_COLUMNS.split(', ').map((c) => `v.${c}`).join(', ')}, k.name as key_name ${sql}
      order by v.created_at desc, v.id limit $${params.push(q.per_page)} offset $${params.push((q.page - 1) * q.per_page)}`,
    params,
  );
  return { rows, total };
}

export interface NumberRow {
  id: number;
  number: string;
  switchboard_name: string;
  otp_enabled: boolean;
  called_30d: number;
  answered_30d: number;
}

/** The call states that mean a call was placed, and those of them that were answered. */
const PLACED = `('answered', 'completed', 'no_answer', 'busy', 'failed')`;
const ANSWERED = `('answered', 'completed')`;

/** Per Vietnam day of [from, to) (and one key), the requests whose call was placed and how many were answered. */
export async function dayStats(tx: Queryable, from: Date, to: Date, keyId: number | ''): Promise<{ day: string; called: number; answered: number }[]> {
  const params: unknown[] = [from, to];
  const byKey = keyId === '' ? '' : ` and v.key_id = $${params.push(keyId)}`;
  const { rows } = await tx.query<{ day: string; called: number; answered: number }>(
    `select to_char(v.created_at at time zone 'Asia/Ho_Chi_Minh', 'YYYY-MM-DD') as day,
            count(*) filter (where v.call_status in ${PLACED})::int as called,
            count(*) filter (where v.call_status in ${ANSWERED})::int as answered
       from otp_verifications v where v.created_at >= $1 and v.created_at < $2${byKey}
      group by 1 order by 1`,
    params,
  );
  return rows;
}

/** The tenant's hotlines (numbers bound to a switchboard) and their OTP switch. */
export async function listNumbers(tx: Queryable, now: Date = new Date()): Promise<NumberRow[]> {
  return (
    await tx.query<NumberRow>(
      `select n.id, n.number, s.name as switchboard_name, n.otp_enabled, coalesce(c.called, 0)::int as called_30d, coalesce(c.answered, 0)::int as answered_30d
         from pbx_numbers n join telecom_switchboards s on s.id = n.switchboard_id
         left join (select hotline_id, count(*) filter (where call_status in ${PLACED}) as called, count(*) filter (where call_status in ${ANSWERED}) as answered
                      from otp_verifications where created_at >= $1::timestamptz - interval '30 days' and hotline_id is not null group by hotline_id) c on c.hotline_id = n.id
        order by n.number`,
      [now],
    )
  ).rows;
}

export async function setNumberOtp(tx: Queryable, id: number, enabled: boolean): Promise<boolean> {
  const { rows } = await tx.query('update pbx_numbers set otp_enabled = $2 where id = $1 and switchboard_id is not null returning id', [id, enabled]);
  return rows.length === 1;
}

/** A verification claimed for its call: who to call, from which hotline, what to say. */
export interface DueCall {
  id: string;
  tenant_id: number;
  /** The tenant's code (its SIP domain, its configuration's key). */
  ma_dn: string;
  phone: string;
  code: string;
  template: string;
  call_attempts: number;
  hotline: string | null;
}

/**
 * Claims up to `limit` verifications whose call is due at `now`, across tenants (run under
 * withSystem): `for update skip locked`, so two API instances never claim one verification, and
 * the claim (calling, one more attempt, the tenant's first hotline enabled for OTP) commits with it.
 */
export async function claimDueCalls(tx: Queryable, now: Date, limit: number): Promise<DueCall[]> {
  const { rows } = await tx.query<DueCall>(
    `with due as (
       select id from otp_verifications
        where next_call_at <= $1 and approved_at is null and expires_at > $1 and checks < ${OTP_LIMITS.maxChecks}
        order by next_call_at, id limit $2 for update skip locked),
     claimed as (
       update otp_verifications v
          set call_status = 'calling', call_attempts = v.call_attempts + 1, next_call_at = null, updated_at = $1,
              hotline_id = (select n.id from pbx_numbers n where n.tenant_id = v.tenant_id and n.otp_enabled and n.active and n.switchboard_id is not null order by n.id limit 1)
         from due where v.id = due.id
       returning v.id, v.tenant_id, v.phone, v.code, v.template, v.call_attempts, v.hotline_id)
     select c.id, c.tenant_id, t.ma_dn, c.phone, c.code, c.template, c.call_attempts, n.number as hotline
       from claimed c join tenants t on t.id = c.tenant_id left join pbx_numbers n on n.id = c.hotline_id`,
    [now, limit],
  );
  for (const r of rows) await addEvent(tx, r.tenant_id, r.id, 'calling', now, r.hotline ?? '');
  return rows;
}

/**
 * Calls no worker reports on any more (ADR 0052): a verification left `calling` or `answered` since
 * `before` — its worker died, or its reports were all lost — is `failed`, with the reason on its
 * timeline (and to its webhook). Across tenants (withSystem), locked so a late report and the sweep
 * do not both write; the rows are few (a partial index, migration 0057).
 */
export async function failLostCalls(tx: Queryable, before: Date, at: Date): Promise<{ id: string; tenant_id: number }[]> {
  const { rows } = await tx.query<{ id: string; tenant_id: number }>(
    `with lost as (
       select id from otp_verifications where call_status in ('calling', 'answered') and updated_at < $1 for update skip locked)
     update otp_verifications v set call_status = 'failed', next_call_at = null, updated_at = $2 from lost where v.id = lost.id
     returning v.id, v.tenant_id`,
    [before, at],
  );
  for (const r of rows) await addEvent(tx, r.tenant_id, r.id, 'failed', at, 'lost');
  return rows;
}

/** The call's state and the key's retry delay (a test call, under no key: 0, never called again), locked for the outcome's update. */
export async function callStateOf(tx: Queryable, id: string): Promise<(CallState & { retry_after_s: number }) | null> {
  const { rows } = await tx.query<CallState & { retry_after_s: number }>(
    `select v.call_status, v.call_attempts, v.expires_at, coalesce(k.retry_after_s, 0) as retry_after_s
       from otp_verifications v left join otp_api_keys k on k.id = v.key_id where v.id = $1 for update of v`,
    [id],
  );
  return rows[0] ?? null;
}

export async function setCallResult(tx: Queryable, id: string, status: CallStatus, nextCallAt: Date | null, durationS: number | null, at: Date): Promise<void> {
  await tx.query(
    'update otp_verifications set call_status = $2, next_call_at = $3, call_duration_s = coalesce($4, call_duration_s), updated_at = $5 where id = $1',
    [id, status, nextCallAt, durationS, at],
  );
}
