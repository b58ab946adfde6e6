import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { OTP_WEBHOOK_HEADERS, OTP_WEBHOOK_RETRY_S } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openWebhookSecret } from '../subscribers/subscribers.service';
import type { SwitchboardHosts } from '../trunks/switchboard-hosts';
import * as repo from './webhook-deliveries.repository';

export type { DeliveryTable } from './webhook-deliveries.repository';

/**
 * Webhooks a tenant's API key hears (ADR 0052 for voice-OTP, ADR 0065 for the CRM's call events): one
 * sender over the delivery tables. Each event is a row written in the transaction that made the
 * change; a round claims the due rows (`for update skip locked`, a 60 s lease), POSTs each to its
 * key's URL read at the try, signed with the key's secret (Stripe's scheme: `x-tongdai-signature:
 * t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>`, `x-tongdai-event-id`), and takes a 2xx in 10 s as
 * delivered; otherwise due again on OTP_WEBHOOK_RETRY_S, then given up. The URL is the tenant's, so
 * it is judged by the switchboards' host policy (ADR 0043) at save and at every try, and the
 * connection goes to the very address that was judged (no second lookup for a rebinding name).
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
  batch?: number;
  clock?: () => Date;
}

/**
 * One round over `table`: claims the due deliveries and tries each; answers how many were tried.
 * `retryAt` hears when a failed one is due again (the caller's wake-up signal).
 */
export async function sendDueDeliveries(db: Db, hosts: SwitchboardHosts, table: repo.DeliveryTable, o: WebhookSenderOptions = {}, retryAt?: (at: Date, now: Date) => void): Promise<number> {
  const clock = o.clock ?? (() => new Date());
  const due = await db.withSystem((tx) => repo.claimDeliveries(tx, table, clock(), o.batch ?? 20));
  await Promise.all(
    due.map(async (d) => {
      const answer = await tryDelivery(d, hosts, clock);
      const at = clock();
      const delivered = answer.status >= 200 && answer.status < 300;
      // A key revoked or without a URL any more: nothing to retry toward.
      const gone = d.revoked || !d.webhook_url;
      const nextAt = delivered || gone ? null : nextDeliveryAt(d.attempts, at);
      await db.withSystem((tx) => repo.finishDelivery(tx, table, d.id, { delivered, status: answer.status, error: answer.error, nextAt, at }));
      if (nextAt) retryAt?.(nextAt, at);
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
  const event = (JSON.parse(d.body) as { event_id: number | string }).event_id;
  const headers = { [OTP_WEBHOOK_HEADERS.signature]: signWebhook(secret, Math.floor(clock().getTime() / 1000), d.body), [OTP_WEBHOOK_HEADERS.event]: String(event) };
  return postPinned(d.webhook_url, judged.address, headers, d.body);
}

/**
 * Deliveries of `table` done with (delivered or given up) older than `keepDays`, a batch at a time
 * (short transactions): answers how many went. Deliveries still to be tried are never pruned.
 */
export async function pruneDoneDeliveries(db: Db, table: repo.DeliveryTable, keepDays: number, clock: () => Date = () => new Date(), batch = 1000): Promise<number> {
  const before = new Date(clock().getTime() - keepDays * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await db.withSystem((tx) => repo.pruneDeliveries(tx, table, before, batch));
    total += n;
    if (n < batch) return total;
  }
}
