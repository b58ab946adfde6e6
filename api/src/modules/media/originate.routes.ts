import { nationalForm, type OriginateJob, type PbxConfig } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/db';
import { planCall, type LiveState } from '../routing';
import { createVoiceOtpService, otpCallsDue, type DueCall } from '../voice-otp/voice-otp.service';
import type { Continuations } from './continuation';

/** What placing a call needs of the call plane (the media routes' dependencies). */
export interface OriginateDeps {
  db: Db;
  continuations: Continuations;
  config(tenantId: number, maDn: string): Promise<PbxConfig>;
  liveState(tenantId: number, caller: string, config: PbxConfig): Promise<LiveState>;
}

/** How long an OTP call rings before the worker gives up (OTP_RING_SECONDS, default 30). */
const ringSeconds = () => Math.min(120, Math.max(3, Number(process.env.OTP_RING_SECONDS) || 30));

const OriginateBody = v.object({
  worker: v.optional(v.pipe(v.string(), v.maxLength(300))),
  /** How long the worker lets the API hold its ask while no call is due (a long poll): 0, answer at once. */
  wait_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000))),
  /** Up to this many calls in one answer (`{ jobs }`); absent: one call, answered as the job itself. */
  max: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
});
const OriginatedBody = v.object({
  id: v.pipe(v.string(), v.uuid()),
  tenant_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  outcome: v.picklist(['answered', 'completed', 'no_answer', 'busy', 'failed']),
  duration_s: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(86_400)))),
  status: v.optional(v.pipe(v.number(), v.integer())),
  /** Which call of the verification this is (the job's `attempt`): a late report of an earlier one changes nothing. */
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/**
 * Calls the server places itself (voice-OTP, ADR 0052), on the internal listener:
 *   POST /internal/sip/media/originate    a worker asks for a call to place: the API claims one due
 *                                          verification (for update skip locked) and answers a
 *                                          continuation token for "out through the hotline's
 *                                          switchboard to the number", the code and the ring time;
 *                                          none due: the ask is held up to its `wait_ms` until a start
 *                                          or a retry's time wakes it (otp-due.ts), then 204
 *   POST /internal/sip/media/originated   the worker's report: answered, then completed / no_answer / busy / failed
 * The worker asks (it already talks to this listener); no API instance needs to know where workers are.
 */
export function registerOriginateRoutes(app: FastifyInstance, d: OriginateDeps): void {
  const otp = createVoiceOtpService(d.db);

  // Closing answers every held ask at once (preClose: before the server waits for its open requests).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    otpCallsDue.wake();
  });

  app.post('/internal/sip/media/originate', async (request, reply) => {
    const body = v.safeParse(OriginateBody, request.body ?? {});
    if (!body.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const { wait_ms: waitMs = 0, max } = body.output;
    const until = Date.now() + waitMs;
    for (;;) {
      const since = otpCallsDue.generation;
      // Asked again and again by every worker: a database that is away answers 503 here, quietly
      // (the worker asks again a little later), instead of an error logged at every ask.
      const claimed = await otp.claimCalls(max ?? 1).catch(() => null);
      if (!claimed) return reply.status(503).send({ error: 'UNAVAILABLE' });
      if (!claimed.length) {
        if (closing || !(await otpCallsDue.wait(until - Date.now(), since))) return reply.status(204).send();
        // The worker gave up on its ask meanwhile: a call claimed now would be placed by nobody.
        if (closing || request.raw.socket?.destroyed) return reply.status(204).send();
        continue;
      }
      const jobs: OriginateJob[] = [];
      for (const call of claimed) {
        const job = await jobOf(call);
        if (job) jobs.push(job);
      }
      // Every claimed call failed to plan: ask the database again (more may be due), or wait.
      if (!jobs.length) continue;
      return max === undefined ? jobs[0] : { jobs };
    }
  });

  /** A claimed call as the worker places it: its plan's token; null (and the call failed) when it cannot go out. */
  async function jobOf(call: DueCall): Promise<OriginateJob | null> {
    if (!call.hotline) {
      await otp.recordCallOutcome(call.tenant_id, call.id, 'failed');
      return null;
    }
    const config = await d.config(call.tenant_id, call.ma_dn);
    const hotline = nationalForm(call.hotline);
    const state = { ...(await d.liveState(call.tenant_id, hotline, config)), campaignCaller: { campaignId: 0, hotline } };
    const plan = planCall(config, { from: hotline, to: nationalForm(call.phone), direction: 'outbound', at: new Date() }, state);
    // No rule lets the number out (or the configuration refuses it): nothing to place.
    if (plan.steps[0]?.kind !== 'forward') {
      await otp.recordCallOutcome(call.tenant_id, call.id, 'failed');
      return null;
    }
    const token = d.continuations.add({ parentCallId: `otp-${call.id}`, tenantId: call.tenant_id, maDn: call.ma_dn, plan });
    return { id: call.id, tenant_id: call.tenant_id, attempt: call.call_attempts, token, caller: hotline, code: call.code, ring_s: ringSeconds() };
  }

  app.post('/internal/sip/media/originated', async (request, reply) => {
    const b = v.safeParse(OriginatedBody, request.body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    // A report the worker sent again (its answer was lost) or about an earlier attempt: taken, ignored.
    // The talk time in whole seconds, as every call record keeps it (the worker measures tenths: 21.3 into
    // the int column was a 400, and the call stayed "answered" for good — the flake of the nineteenth session).
    const duration = b.output.duration_s == null ? null : Math.round(b.output.duration_s);
    const applied = await otp.recordCallOutcome(b.output.tenant_id, b.output.id, b.output.outcome, duration, b.output.attempt);
    return { ok: true, applied };
  });
}
