import type { FastifyInstance } from 'fastify';
import { isCrmKey, type CallDelivery, type CallDeliveryQuery, type IntegrationKeyInput, type OtpKey, type OtpKeyCreated, type Paged } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError } from '../../http/errors';
import type { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { createVoiceOtpService } from '../voice-otp/voice-otp.service';
import { pruneDoneDeliveries, sendDueDeliveries, type WebhookSenderOptions } from '../webhooks/webhooks.service';
import { callEventsDue } from './call-events.service';
import * as repo from './call-events.repository';

/** How long deliveries done with are kept (as voice-OTP's, ADR 0052). */
export const CALL_WEBHOOK_KEEP_DAYS = 30;

/** One round of the CRM's call-event deliveries (the shared sender): answers how many were tried. */
export const sendDueCallWebhooks = (db: Db, hosts: SwitchboardHosts, o: WebhookSenderOptions = {}): Promise<number> =>
  sendDueDeliveries(db, hosts, 'call_webhook_deliveries', o, (at, now) => callEventsDue.wakeAt(at, now.getTime()));

export const pruneCallDeliveries = (db: Db, clock?: () => Date, batch?: number): Promise<number> =>
  pruneDoneDeliveries(db, 'call_webhook_deliveries', CALL_WEBHOOK_KEEP_DAYS, clock, batch);

/**
 * The API's round for the CRM's call events, from the moment the server is ready: woken by the call
 * plane's commits and by retries' times, at least every `everyMs` (15 s: what another instance wrote);
 * a round that sent something runs again at once (a call's next event waits for its previous one).
 * Old deliveries are pruned hourly. A database that is away fails a round quietly.
 */
export function scheduleCallWebhooks(app: FastifyInstance, db: Db, hosts: SwitchboardHosts, o: WebhookSenderOptions & { everyMs?: number; pruneEveryMs?: number } = {}): void {
  let closed = false;
  let loop: Promise<void> | null = null;
  let pruned = 0;
  const round = async (): Promise<number> => {
    if (Date.now() - pruned >= (o.pruneEveryMs ?? 3_600_000)) {
      pruned = Date.now();
      await pruneCallDeliveries(db, o.clock).catch((err: unknown) => app.log.warn({ err }, 'call webhook deliveries: pruning failed'));
    }
    return sendDueCallWebhooks(db, hosts, o).catch((err: unknown) => (app.log.warn({ err }, 'call webhooks: round failed'), 0));
  };
  app.addHook('onReady', async () => {
    loop = (async () => {
      while (!closed) {
        const since = callEventsDue.generation;
        const tried = await round();
        if (closed) return;
        if (!tried) await callEventsDue.wait(o.everyMs ?? 15_000, since);
      }
    })();
  });
  app.addHook('preClose', async () => {
    closed = true;
    callEventsDue.wake();
    await loop;
  });
}

/** The keys a CRM uses (issue 39): voice-OTP's key table (ADR 0052), without its purchase. */
export function createIntegrationsService(db: Db, hosts?: SwitchboardHosts) {
  const otp = createVoiceOtpService(db, undefined, hosts);
  const crmKey = async (tenantId: number, id: number): Promise<OtpKey> => {
    const key = (await otp.keys.list(tenantId)).find((k) => k.id === id);
    if (!key || !isCrmKey(key.scopes)) throw new AppError('NOT_FOUND');
    return key;
  };
  return {
    listKeys: async (tenantId: number): Promise<OtpKey[]> => (await otp.keys.list(tenantId)).filter((k) => isCrmKey(k.scopes)),
    createKey: (tenantId: number, maDn: string, userId: number | null, x: IntegrationKeyInput): Promise<OtpKeyCreated> =>
      otp.keys.create(tenantId, maDn, userId, { ...x, retry_after_s: 0 }),
    async revokeKey(tenantId: number, id: number): Promise<OtpKey> {
      await crmKey(tenantId, id);
      return otp.keys.revoke(tenantId, id);
    },
    async rotateSecret(tenantId: number, id: number): Promise<{ webhook_secret: string }> {
      await crmKey(tenantId, id);
      return otp.keys.rotateWebhookSecret(tenantId, id);
    },
    /** The deliveries of the tenant's CRM keys, or of one (a key of another tenant or no CRM key: 404), newest first. */
    async deliveries(tenantId: number, q: CallDeliveryQuery): Promise<Paged<CallDelivery>> {
      const ids = q.key_id === '' ? (await otp.keys.list(tenantId)).filter((k) => isCrmKey(k.scopes)).map((k) => k.id) : [(await crmKey(tenantId, q.key_id)).id];
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listDeliveries(tx, ids, q.search, q.page, q.per_page));
      const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);
      return {
        data: rows.map((r) => ({ ...r, created_at: iso(r.created_at)!, next_at: r.status === 'retrying' ? iso(r.next_at) : null, delivered_at: iso(r.delivered_at) })),
        meta: { page: q.page, per_page: q.per_page, total },
      };
    },
  };
}
export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
