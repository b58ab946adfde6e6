import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { OTP_WEBHOOK_HEADERS, OTP_WEBHOOK_RETRY_S } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openWebhookSecret } from '../subscribers/subscribers.service';
import type { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { otpEventsDue } from './otp-due';
import { OTP_LOST_CALL_S, OTP_WEBHOOK_KEEP_DAYS } from './voice-otp';
import * as repo from './voice-otp.repository';

/**
 * Voice-OTP webhooks (issue 35, ADR 0052): each status change of a verification is a delivery row
 * written with the change (voice-otp.repository addEvent); this sender claims the due ones, POSTs each
 * to its key's URL, signed, and retries on OTP_WEBHOOK_RETRY_S. The URL is the tenant's, so it is
 * judged by the same host policy as a switchboard (ADR 0043: no loopback, private network, link-local
 * or the PBX's own service ports unless the operator allows them) at save and again at every try, and
 * the connection goes to the very address that was judged (no second lookup for a rebinding name).
 */

/** A new signing secret: 32 random bytes, recognisable by its prefix. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** The signature header's value for `body` sent at `t` (unix seconds). */
export const signWebhook = (secret: string, t: number, body: string): string =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

/** When a delivery that failed its `attempts`-th try is due again; null: given up. */
export function nextDeliveryAt(attempts: number, at: Date): Date | null {
  const wait = OTP_WEBHOOK_RETRY_S[attempts - 1];
  return wait === undefined ? null : new Date(at.getTime() + wait * 1000);
}

export interface WebhookAnswer {
  status: number;
  error: string;
}

/** The URL's host judged by the policy; the address to connect to, or why not. */
export async function judgeWebhookUrl(hosts: SwitchboardHosts, url: string): Promise<{ ok: true; address: string } | { ok: false; error: string }> {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const verdict = await hosts.check(host, port);
  if (!verdict.ok) return { ok: false, error: `host refused (${verdict.rule}${verdict.address ? ` ${verdict.address}` : ''})` };
  const address = verdict.addresses[0];
  return address ? { ok: true, address } : { ok: false, error: `${host} does not resolve` };
}

/** POSTs `body` to `url`, connecting to `address` (already judged) whatever the name resolves to now. */
export function postPinned(url: string, address: string, headers: Record<string, string>, body: string, timeoutMs = 10_000): Promise<WebhookAnswer> {
  const u = new URL(url);
  const lookup: LookupFunction = (_name, options, cb) => {
    const family = address.includes(':') ? 6 : 4;
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      u,
      { method: 'POST', lookup, timeout: timeoutMs, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Tongdai-Webhook/1', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, error: res.statusCode && res.statusCode < 300 ? '' : `HTTP ${res.statusCode}` }));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs / 1000} s`)));
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end(body);
  });
}

export interface WebhookSenderOptions {
  everyMs?: number;
  batch?: number;
  clock?: () => Date;
}

/** One round: claims the due deliveries and tries each; answers how many were tried. */
export async function sendDueWebhooks(db: Db, hosts: SwitchboardHosts, o: WebhookSenderOptions = {}): Promise<number> {
  const clock = o.clock ?? (() => new Date());
  const due = await db.withSystem((tx) => repo.claimDeliveries(tx, clock(), o.batch ?? 20));
  await Promise.all(
    due.map(async (d) => {
      const answer = await tryDelivery(d, hosts, clock);
      const at = clock();
      const delivered = answer.status >= 200 && answer.status < 300;
      // A key revoked or without a URL any more: nothing to retry toward.
      const gone = d.revoked || !d.webhook_url;
      const nextAt = delivered || gone ? null : nextDeliveryAt(d.attempts, at);
      await db.withSystem((tx) => repo.finishDelivery(tx, d.id, { delivered, status: answer.status, error: answer.error, nextAt, at }));
      if (nextAt) otpEventsDue.wakeAt(nextAt, at.getTime());
    }),
  );
  return due.length;
}

async function tryDelivery(d: repo.DueDelivery, hosts: SwitchboardHosts, clock: () => Date): Promise<WebhookAnswer> {
  if (d.revoked) return { status: 0, error: 'key revoked' };
  if (!d.webhook_url) return { status: 0, error: 'no webhook URL' };
  const secret = d.webhook_secret_sealed ? openWebhookSecret(d.tenant_id, d.webhook_secret_sealed) : null;
  if (!secret) return { status: 0, error: 'no signing secret' };
  const judged = await judgeWebhookUrl(hosts, d.webhook_url);
  if (!judged.ok) return { status: 0, error: judged.error };
  const event = (JSON.parse(d.body) as { event_id: number }).event_id;
  const headers = { [OTP_WEBHOOK_HEADERS.signature]: signWebhook(secret, Math.floor(clock().getTime() / 1000), d.body), [OTP_WEBHOOK_HEADERS.event]: String(event) };
  return postPinned(d.webhook_url, judged.address, headers, d.body);
}

/** One sweep of the calls no media worker reports on any more (ADR 0052): answers how many were failed. */
export async function sweepLostCalls(db: Db, clock: () => Date = () => new Date()): Promise<number> {
  const at = clock();
  const failed = (await db.withSystem((tx) => repo.failLostCalls(tx, new Date(at.getTime() - OTP_LOST_CALL_S * 1000), at))).length;
  if (failed) otpEventsDue.wake(); // "failed" for the webhooks
  return failed;
}

/**
 * Deliveries done with (delivered or given up) past OTP_WEBHOOK_KEEP_DAYS, a batch at a time (short
 * transactions): answers how many went. The newest of a key stays while it is younger (its row on
 * /voice-otp/number says how the last one went).
 */
export async function pruneDeliveries(db: Db, clock: () => Date = () => new Date(), batch = 1000): Promise<number> {
  const before = new Date(clock().getTime() - OTP_WEBHOOK_KEEP_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await db.withSystem((tx) => repo.pruneDeliveries(tx, before, batch));
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Voice-OTP's background work in the API, one round at a time from the moment the server is ready:
 * the webhooks due, the sweep of lost calls (every 30 s at most) and the pruning of old deliveries
 * (hourly). A round runs when a status change or a retry's time wakes it (otpEventsDue), and at least
 * every `everyMs` (15 s: what another API instance wrote, a retry scheduled before a restart) — not a
 * transaction every 2 s on an idle system. Closing the server ends the wait and waits for a round
 * under way. A database that is away fails a round quietly: the rows wait, the next round tries again.
 */
export function scheduleOtpJobs(app: FastifyInstance, db: Db, hosts: SwitchboardHosts, o: WebhookSenderOptions & { sweepEveryMs?: number; pruneEveryMs?: number } = {}): void {
  let closed = false;
  let loop: Promise<void> | null = null;
  let swept = 0;
  let pruned = 0;
  const round = async () => {
    const sweep = Date.now() - swept >= (o.sweepEveryMs ?? 30_000);
    if (sweep) swept = Date.now();
    const prune = Date.now() - pruned >= (o.pruneEveryMs ?? 3_600_000);
    if (prune) pruned = Date.now();
    await Promise.all([
      sendDueWebhooks(db, hosts, o).catch((err: unknown) => app.log.warn({ err }, 'voice-OTP webhooks: round failed')),
      sweep ? sweepLostCalls(db, o.clock).then(
        (n) => void (n && app.log.warn({ failed: n }, 'voice-OTP calls lost (no report from their media worker): failed')),
        (err: unknown) => app.log.warn({ err }, 'voice-OTP lost-call sweep failed'),
      ) : undefined,
      prune ? pruneDeliveries(db, o.clock).catch((err: unknown) => app.log.warn({ err }, 'voice-OTP webhook deliveries: pruning failed')) : undefined,
    ]);
  };
  app.addHook('onReady', async () => {
    loop = (async () => {
      while (!closed) {
        const since = otpEventsDue.generation;
        await round();
        if (closed) return;
        await otpEventsDue.wait(o.everyMs ?? 15_000, since);
      }
    })();
  });
  app.addHook('preClose', async () => {
    closed = true;
    otpEventsDue.wake();
    await loop;
  });
}
