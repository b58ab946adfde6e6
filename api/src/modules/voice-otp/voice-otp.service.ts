import { randomInt } from 'node:crypto';
import {
  OTP_DEFAULT_TEMPLATE, OTP_LIMITS, OTP_MSG, OTP_STATUS_LABELS, OTP_TEST_CALL_LABEL, displayForm, vnDay, vnDayStart, vnTime, presetRange, type OtpCheckResult, type OtpKey, type OtpKeyCreated, type OtpKeyInput, type OtpListQuery, type OtpListRow,
  type OtpNumber, type OtpRefusal, type ApiKeyScope, type OtpStartInput, type OtpStatus, type OtpStats, type OtpTestCall, type OtpTestCallInput, type OtpVerification, type Paged,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import { AppError } from '../../http/errors';
import { checkAndClaim } from '../campaigns/decree91.service';
import { phoneMasker } from '../settings/settings.service';
import { sealWebhookSecret } from '../subscribers/subscribers.service';
import type { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { findTenantByMaDn } from '../tenants/tenants.service';
import { formatKey, hashSecret, keyPrefix, newSecret, parseKey, secretMatches } from './otp-keys';
import { otpCallsDue, otpEventsDue } from './otp-due';
import { judgeWebhookUrl, newWebhookSecret, sweepLostCalls } from './otp-webhooks';

export { scheduleOtpJobs, signWebhook } from './otp-webhooks';
// For the media routes that hand due calls to the workers (originate.routes.ts).
export { otpCallsDue } from './otp-due';
export type { DueCall } from './voice-otp.repository';
import { afterCall, callableNumber, decideCheck, drawCode, limitRefusal, verificationStatus, type CallOutcome } from './voice-otp';
import * as repo from './voice-otp.repository';

/** The key a request presented, once checked: its tenant, its row, its scopes. */
export interface OtpCaller {
  tenantId: number;
  keyId: number;
  scopes: ApiKeyScope[];
}

const DAY_MS = 86_400_000;

const refused = (rule: OtpRefusal, code: 'OTP_REFUSED' | 'OTP_RATE_LIMITED' = 'OTP_REFUSED') =>
  new AppError(code, [{ field: 'phone', rule, message: OTP_MSG[rule] }]);

const keyOf = (r: repo.KeyRow): OtpKey => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  prefix: r.prefix,
  daily_limit: r.daily_limit,
  retry_after_s: r.retry_after_s,
  last_used_at: r.last_used_at && iso(r.last_used_at),
  revoked_at: r.revoked_at && iso(r.revoked_at),
  created_at: iso(r.created_at),
  webhook_url: r.webhook_url,
  webhook_last: r.webhook_last_at && { status: r.webhook_last_status ?? 0, at: iso(r.webhook_last_at), delivered: r.webhook_last_delivered === true },
});

/** The SQL of a status filter: the same precedence as verificationStatus (approved, expired, the call's). */
function statusWhere(status: OtpStatus | ''): string | null {
  if (status === '') return null;
  if (status === 'approved') return 'v.approved_at is not null';
  const expired = `(v.expires_at <= $now or v.checks >= ${OTP_LIMITS.maxChecks})`;
  if (status === 'expired') return `v.approved_at is null and ${expired}`;
  return `v.approved_at is null and not ${expired} and v.call_status = '${status}'`;
}

/** How stale a key's "last used" may grow before a request writes it again. */
const LAST_USED_GRAIN_MS = 60_000;

/**
 * Voice-OTP (issue 35, ADR 0052): the keys a tenant manages and the verifications its applications
 * start and check with them. `clock` is the server's time, given so that expiry is tested without waiting.
 */
export function createVoiceOtpService(db: Db, clock: () => Date = () => new Date(), hosts?: SwitchboardHosts) {
  const notFound = () => new AppError('NOT_FOUND');

  /**
   * A verification due for its call, after every refusal and limit (an application's start, or a
   * test call from the screen: `keyId` null, no key limit). Under the tenant's lock: two starts
   * cannot both take the last free place of a limit.
   */
  async function begin(tenantId: number, by: { keyId: number | null; startedBy: number | null }, x: OtpStartInput, now: Date): Promise<repo.VerificationRow> {
    const callable = callableNumber(x.phone);
    if ('refusal' in callable) throw refused(callable.refusal);
    const number = callable.number;
    const row = await db.withTenant(tenantId, async (tx) => {
      if (await repo.isBlockedOut(tx, number)) throw refused('blocked_out');
      // The tenant's own do-not-call list binds every kind of call; an OTP is transactional (ADR 0049).
      const dnc = await checkAndClaim(tx, tenantId, { kind: 'transactional', number, hotline: number, at: now, campaignId: null, callId: null });
      if (!dnc.allowed) throw refused('dnc');
      if (!(await repo.hasEnabledHotline(tx))) throw new AppError('OTP_NO_CALLER_NUMBER');
      await repo.lockTenantStarts(tx, tenantId);
      let dailyLimit = Number.MAX_SAFE_INTEGER;
      if (by.keyId !== null) {
        const key = await repo.getKeyAccess(tx, by.keyId);
        if (!key) throw new AppError('UNAUTHORIZED');
        dailyLimit = key.daily_limit;
      }
      const limit = limitRefusal(await repo.limitCounts(tx, by.keyId, number, now, dailyLimit));
      if (limit) throw refused(limit, 'OTP_RATE_LIMITED');
      const code = x.code ?? drawCode(x.code_length ?? OTP_LIMITS.codeLength.default, randomInt);
      const row = await repo.insertVerification(tx, tenantId, {
        keyId: by.keyId, phone: number, code, template: x.template, expiresAt: new Date(now.getTime() + x.ttl_s * 1000), now, startedBy: by.startedBy,
      });
      await repo.addEvent(tx, tenantId, row.id, 'queued', now, by.keyId === null ? 'test' : '');
      return row;
    });
    // Committed: a media worker waiting for a call to place claims it now, the webhook round sends "queued" (otp-due.ts).
    otpCallsDue.wake();
    otpEventsDue.wake();
    return row;
  }
  /**
   * A webhook URL the policy refuses (ADR 0043's, as for a switchboard: the API itself will POST to
   * it) is a 422 under its field, before anything is written. A name that resolves to nothing yet
   * is no refusal: it is judged again at every delivery.
   */
  const vetWebhook = async (x: OtpKeyInput): Promise<void> => {
    if (!hosts || !x.webhook_url) return;
    const judged = await judgeWebhookUrl(hosts, x.webhook_url);
    if (!judged.ok && judged.error.startsWith('host refused')) {
      const rule = /\(([a-z-]+)/.exec(judged.error)?.[1];
      throw new AppError('WEBHOOK_HOST_REFUSED', [{ field: 'webhook_url', message: OTP_MSG.webhookHost, ...(rule ? { rule } : {}) }]);
    }
  };

  return {
    /** The presented bearer as a key of a live tenant, or 401; last_used_at is set as it opens. */
    async authenticate(bearer: string | undefined): Promise<OtpCaller> {
      const parsed = bearer ? parseKey(bearer) : null;
      const tenant = parsed ? await findTenantByMaDn(db, parsed.maDn) : null;
      if (!parsed || !tenant) throw new AppError('UNAUTHORIZED');
      return db.withTenant(tenant.id, async (tx) => {
        const key = await repo.getKeyAccess(tx, parsed.id);
        if (!key || key.revoked_at || !secretMatches(parsed.secret, key.secret_hash)) throw new AppError('UNAUTHORIZED');
        // "Last used" to the minute: a write per request (an application starting tens a second) would
        // queue behind every other write of the tenant for a time nobody reads closer than that.
        const now = clock();
        if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() >= LAST_USED_GRAIN_MS) await repo.touchKey(tx, key.id, now);
        return { tenantId: tenant.id, keyId: key.id, scopes: key.scopes };
      });
    },

    async start(c: OtpCaller, x: OtpStartInput): Promise<{ id: string; status: OtpStatus; expires_at: string }> {
      const now = clock();
      const row = await begin(c.tenantId, { keyId: c.keyId, startedBy: null }, x, now);
      return { id: row.id, status: verificationStatus(row, now), expires_at: iso(row.expires_at) };
    },

    /**
     * "Gọi thử" on /voice-otp/number: a test call from a user, under no key (no application reads or
     * checks it, no webhook hears it), with the refusals and the per-number and per-tenant limits of a
     * start. The code is answered to the user who asked, to compare with what the phone hears.
     */
    async testCall(tenantId: number, userId: number | null, x: OtpTestCallInput): Promise<OtpTestCall> {
      const row = await begin(tenantId, { keyId: null, startedBy: userId }, { phone: x.phone, ttl_s: OTP_LIMITS.ttlS.default, template: OTP_DEFAULT_TEMPLATE }, clock());
      return { id: row.id, phone: displayForm(row.phone), code: row.code };
    },

    async get(c: OtpCaller, id: string): Promise<OtpVerification> {
      const now = clock();
      return db.withTenant(c.tenantId, async (tx) => {
        const row = await repo.verificationWithTimeline(tx, c.keyId, id);
        if (!row) throw notFound();
        const events = row.timeline;
        return {
          id: row.id,
          status: verificationStatus(row, now),
          phone: row.phone,
          expires_at: iso(row.expires_at),
          created_at: iso(row.created_at),
          checks: row.checks,
          timeline: events.map((e) => ({ status: e.status as OtpStatus, at: iso(e.at), detail: e.detail })),
        };
      });
    },

    async check(c: OtpCaller, id: string, given: string): Promise<{ status: OtpCheckResult }> {
      const now = clock();
      return db.withTenant(c.tenantId, async (tx) => {
        const row = await repo.getVerification(tx, c.keyId, id, true);
        if (!row) throw notFound();
        const d = decideCheck(row, given, now);
        if (d.counted) {
          await repo.recordCheck(tx, id, d.approve, now);
          await repo.addEvent(tx, c.tenantId, id, 'check', now, d.result);
          if (d.approve) await repo.addEvent(tx, c.tenantId, id, 'approved', now);
        }
        return { status: d.result, counted: d.counted };
      }).then(({ status, counted }) => {
        if (counted) otpEventsDue.wake();
        return { status };
      });
    },

    /** The calls due now, claimed for placing (slice 2's job loop hands them to a media worker). */
    async claimCalls(limit = 10): Promise<repo.DueCall[]> {
      const claimed = await db.withSystem((tx) => repo.claimDueCalls(tx, clock(), limit));
      if (claimed.length) otpEventsDue.wake(); // "calling" for the webhooks
      return claimed;
    },

    /**
     * A placed call's outcome (the media worker's report): the status, the timeline, and a retry when
     * the policy says so. false: a report sent again or about an earlier attempt, which changes nothing.
     */
    async recordCallOutcome(tenantId: number, id: string, outcome: CallOutcome, durationS: number | null = null, attempt?: number): Promise<boolean> {
      const at = clock();
      const retryAt = await db.withTenant(tenantId, async (tx) => {
        const state = await repo.callStateOf(tx, id);
        if (!state) throw notFound();
        const next = afterCall(state, outcome, at, state.retry_after_s, attempt);
        if (!next) return false;
        await repo.setCallResult(tx, id, next.call_status, next.next_call_at, durationS, at);
        await repo.addEvent(tx, tenantId, id, outcome, at, next.next_call_at ? `retry ${iso(next.next_call_at)}` : '');
        return next.next_call_at ?? true;
      });
      // The retry is placed when its time comes, not at the next poll (otp-due.ts).
      if (retryAt instanceof Date) otpCallsDue.wakeAt(retryAt, at.getTime());
      if (retryAt !== false) otpEventsDue.wake();
      return retryAt !== false;
    },

    /** Fails the calls no media worker reported on for OTP_LOST_CALL_S (a worker that died mid-call). */
    sweepLostCalls: (): Promise<number> => sweepLostCalls(db, clock),

    keys: {
      list: async (tenantId: number): Promise<OtpKey[]> => (await db.withTenant(tenantId, repo.listKeys)).map(keyOf),

      /** The one answer that carries the whole key and its webhook signing secret. */
      async create(tenantId: number, maDn: string, userId: number | null, x: OtpKeyInput): Promise<OtpKeyCreated> {
        await vetWebhook(x);
        return db.withTenant(tenantId, async (tx) => {
          const id = await repo.insertKey(tx, tenantId, x, userId);
          const secret = newSecret();
          await repo.setKeySecret(tx, id, keyPrefix(maDn, id, secret), hashSecret(secret));
          const webhookSecret = newWebhookSecret();
          await repo.setWebhookSecret(tx, id, sealWebhookSecret(tenantId, webhookSecret));
          return { ...keyOf((await repo.getKey(tx, id))!), secret: formatKey(maDn, id, secret), webhook_secret: webhookSecret };
        });
      },

      /** A new signing secret, answered once; deliveries not yet sent are signed with it. */
      async rotateWebhookSecret(tenantId: number, id: number): Promise<{ webhook_secret: string }> {
        return db.withTenant(tenantId, async (tx) => {
          const webhookSecret = newWebhookSecret();
          if (!(await repo.setWebhookSecret(tx, id, sealWebhookSecret(tenantId, webhookSecret)))) throw notFound();
          return { webhook_secret: webhookSecret };
        });
      },

      async update(tenantId: number, id: number, x: OtpKeyInput): Promise<OtpKey> {
        await vetWebhook(x);
        return db.withTenant(tenantId, async (tx) => {
          if (!(await repo.updateKey(tx, id, x))) throw notFound();
          return keyOf((await repo.getKey(tx, id))!);
        });
      },

      async revoke(tenantId: number, id: number): Promise<OtpKey> {
        return db.withTenant(tenantId, async (tx) => {
          if (!(await repo.revokeKey(tx, id))) throw notFound();
          return keyOf((await repo.getKey(tx, id))!);
        });
      },
    },

    /** The list; the numbers masked for everybody while the tenant's setting hides them (as the call history's). */
    async list(tenantId: number, q: OtpListQuery): Promise<Paged<OtpListRow>> {
      const now = clock();
      const range = q.preset ? presetRange(q.preset, now) : null;
      const query = range ? { ...q, ...range } : q;
      const hide = await phoneMasker(db, tenantId);
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listVerifications(tx, query, statusWhere(q.status), now));
      return {
        data: rows.map((r) => ({
          id: r.id,
          created_at: iso(r.created_at),
          phone: hide ? hide(displayForm(r.phone)) : displayForm(r.phone),
          key_id: r.key_id,
          key_name: r.key_name,
          status: verificationStatus(r, now),
          call_duration_s: r.call_duration_s,
          checks: r.checks,
        })),
        meta: { page: q.page, per_page: q.per_page, total },
      };
    },

    /**
     * The answered rate per Vietnam day, for the list's chart: the list's dates (a preset, or from/to;
     * none: the last 30 days) and key; every day of the range, those without requests at 0.
     */
    async stats(tenantId: number, q: Pick<OtpListQuery, 'preset' | 'from' | 'to' | 'key_id'>): Promise<OtpStats> {
      const now = clock();
      const range = q.preset ? presetRange(q.preset, now) : q.from || q.to ? { from: q.from, to: q.to } : null;
      const to = range?.to ? vnDayStart(range.to)!.getTime() + DAY_MS : vnDayStart(vnDay(now))!.getTime() + DAY_MS;
      const from = range?.from ? vnDayStart(range.from)!.getTime() : to - 30 * DAY_MS;
      const rows = await db.withTenant(tenantId, (tx) => repo.dayStats(tx, new Date(from), new Date(to), q.key_id));
      const byDay = new Map(rows.map((r) => [r.day, r]));
      const days: OtpStats['days'] = [];
      // At most 366 bars: a longer range shows its last year.
      for (let t = Math.max(from, to - 366 * DAY_MS); t < to; t += DAY_MS) {
        const day = vnDay(new Date(t));
        days.push({ day, called: byDay.get(day)?.called ?? 0, answered: byDay.get(day)?.answered ?? 0 });
      }
      return { days, called: rows.reduce((n, r) => n + r.called, 0), answered: rows.reduce((n, r) => n + r.answered, 0) };
    },

    /** Every request the list's filters select, 1,000 at a time, as the export's lines (Vietnam time, masked numbers). */
    async exportPages(tenantId: number, q: OtpListQuery): Promise<AsyncGenerator<string[][]>> {
      const first = await this.list(tenantId, { ...q, page: 1, per_page: 1 });
      const pages = Math.ceil(first.meta.total / 1000);
      const list = (page: number) => this.list(tenantId, { ...q, page, per_page: 1000 });
      return (async function* () {
        for (let page = 1; page <= pages; page++) {
          yield (await list(page)).data.map((r) => [
            `${vnDay(new Date(r.created_at))} ${vnTime(r.created_at)}`, r.phone, r.key_name ?? OTP_TEST_CALL_LABEL, OTP_STATUS_LABELS[r.status],
            r.call_duration_s === null ? '' : String(r.call_duration_s), String(r.checks),
          ]);
        }
      })();
    },

    numbers: {
      list: async (tenantId: number): Promise<OtpNumber[]> =>
        (await db.withTenant(tenantId, (tx) => repo.listNumbers(tx, clock()))).map((r) => ({ ...r, number: displayForm(r.number) })),
      async set(tenantId: number, id: number, enabled: boolean): Promise<OtpNumber> {
        return db.withTenant(tenantId, async (tx: Queryable) => {
          if (!(await repo.setNumberOtp(tx, id, enabled))) throw notFound();
          const row = (await repo.listNumbers(tx)).find((r) => r.id === id)!;
          return { ...row, number: displayForm(row.number) };
        });
      },
    },
  };
}
export type VoiceOtpService = ReturnType<typeof createVoiceOtpService>;
