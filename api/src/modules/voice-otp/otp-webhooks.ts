import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import type { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { pruneDoneDeliveries, sendDueDeliveries } from '../webhooks/webhooks.service';
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

export { judgeWebhookUrl, newWebhookSecret, nextDeliveryAt, postPinned, signWebhook, type WebhookAnswer } from '../webhooks/webhooks.service';

export interface WebhookSenderOptions {
  everyMs?: number;
  batch?: number;
  clock?: () => Date;
}

/** One round of voice-OTP's deliveries (the shared sender, webhooks.service): answers how many were tried. */
export const sendDueWebhooks = (db: Db, hosts: SwitchboardHosts, o: WebhookSenderOptions = {}): Promise<number> =>
  sendDueDeliveries(db, hosts, 'otp_webhook_deliveries', o, (at, now) => otpEventsDue.wakeAt(at, now.getTime()));

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
export const pruneDeliveries = (db: Db, clock: () => Date = () => new Date(), batch = 1000): Promise<number> =>
  pruneDoneDeliveries(db, 'otp_webhook_deliveries', OTP_WEBHOOK_KEEP_DAYS, clock, batch);

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
