import {
  CRM_CALL_OUTCOMES, type ClickToCallJob, type CrmCallReportAnswer,
  DIALER_OUTCOMES, nationalForm, recordsDirection, voiceQuestionPrompt, type DialerJob, type DialerReportAnswer, type OriginateJob, type PbxConfig, type PlacedJob,
  type VoiceSurveyJob,
} from '@tongdai/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/db';
import type { DialerFiguresMoved } from '../campaigns/dialer-live.service';
import { createCrmCallsService, customerPlan, type ClaimedCall } from '../crm-calls/crm-calls.service';
import { createDialerService, type DialerCallToPlace, type VoiceCallToPlace } from '../campaigns/dialer.service';
import { extensionRecordingMode, planPlacedCall, type LiveState, type RoutingPlan } from '../routing';
import { signRecordingTicket } from '../recordings/recordings.service';
import { createVoiceOtpService, otpCallsDue, type DueCall } from '../voice-otp/voice-otp.service';
import type { ContinuationStore } from './continuation';

/** What placing a call needs of the call plane (the media routes' dependencies). */
export interface OriginateDeps {
  db: Db;
  continuations: ContinuationStore;
  config(tenantId: number, maDn: string): Promise<PbxConfig>;
  liveState(tenantId: number, caller: string, config: PbxConfig): Promise<LiveState>;
  /** The tenant's code (its SIP domain), for a continuation of a call the API knows only by tenant id. */
  tenantCode(tenantId: number): Promise<string | null>;
  /** A dialer campaign's figures moved (its calls placed or reported): the /monitor wall is told. */
  dialerMoved?: DialerFiguresMoved;
}

/** How long an OTP call rings before the worker gives up (OTP_RING_SECONDS, default 30). */
const ringSeconds = () => Math.min(120, Math.max(3, Number(process.env.OTP_RING_SECONDS) || 30));
/** How long a dialer call rings the contact (DIALER_RING_SECONDS, default 30), then the agent (DIALER_AGENT_RING_SECONDS, 15). */
const dialerRingSeconds = () => Math.min(120, Math.max(3, Number(process.env.DIALER_RING_SECONDS) || 30));
const agentRingSeconds = () => Math.min(60, Math.max(2, Number(process.env.DIALER_AGENT_RING_SECONDS) || 15));
/** A click-to-call rings the agent's phones (CRM_AGENT_RING_SECONDS, default 20), then the customer (CRM_RING_SECONDS, 45): ADR 0066. */
const crmAgentRingSeconds = () => Math.min(60, Math.max(2, Number(process.env.CRM_AGENT_RING_SECONDS) || 20));
const crmRingSeconds = () => Math.min(120, Math.max(3, Number(process.env.CRM_RING_SECONDS) || 45));
/** The sweep of dialer calls no worker reports on runs at most this often, on the workers' asks. */
const DIALER_SWEEP_MS = 30_000;

const OriginateBody = v.object({
  worker: v.optional(v.pipe(v.string(), v.maxLength(300))),
  /** How long the worker lets the API hold its ask while no call is due (a long poll): 0, answer at once. */
  wait_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000))),
  /** Up to this many calls in one answer (`{ jobs }`); absent: one call, answered as the job itself. */
  max: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
});
const DialerReportBody = v.object({
  kind: v.literal('dialer'),
  id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,17}$/)),
  tenant_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  outcome: v.picklist(DIALER_OUTCOMES),
  call_id: v.optional(v.pipe(v.string(), v.maxLength(300))),
  duration_s: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(86_400)))),
  status: v.optional(v.pipe(v.number(), v.integer())),
  /** A voice survey's last report: each question's keys (null: no valid input). */
  answers: v.optional(v.pipe(v.array(v.object({
    question_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
    keys: v.nullable(v.pipe(v.string(), v.regex(/^[0-9#*]{1,32}$/))),
  })), v.maxLength(50))),
});
const ClickReportBody = v.object({
  kind: v.literal('click'),
  id: v.pipe(v.string(), v.uuid()),
  tenant_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  outcome: v.picklist(CRM_CALL_OUTCOMES),
  call_id: v.optional(v.pipe(v.string(), v.maxLength(300))),
  duration_s: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(86_400)))),
  status: v.optional(v.pipe(v.number(), v.integer())),
});
const OriginatedBody = v.object({
  kind: v.optional(v.literal('otp')),
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
  const dialer = createDialerService(d.db, d.dialerMoved);
  const crm = createCrmCallsService(d.db);
  let sweptAt = 0;

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
      if (Date.now() - sweptAt >= DIALER_SWEEP_MS) {
        sweptAt = Date.now();
        await dialer.failLostCalls(new Date()).catch(() => undefined);
        await crm.failLost().catch(() => undefined);
      }
      // A CRM's click-to-call first (ADR 0066): an agent waits on it, having just clicked.
      const clicked = await crm.claimCalls(max ?? 1).catch(() => null);
      if (!clicked) return reply.status(503).send({ error: 'UNAVAILABLE' });
      const clickJobs: ClickToCallJob[] = [];
      for (const call of clicked) {
        const job = await clickJobOf(call);
        if (job) clickJobs.push(job);
      }
      if (clickJobs.length) return max === undefined ? clickJobs[0] : { jobs: clickJobs };
      if (clicked.length) continue;
      // Asked again and again by every worker: a database that is away answers 503 here, quietly
      // (the worker asks again a little later), instead of an error logged at every ask.
      const claimed = await otp.claimCalls(max ?? 1).catch(() => null);
      if (!claimed) return reply.status(503).send({ error: 'UNAVAILABLE' });
      // The campaign dialer's calls (issue 34) share the ask: what OTP left of `max`.
      const progressive = claimed.length < (max ?? 1) ? await dialer.claimCalls((max ?? 1) - claimed.length, new Date(), agentFree).catch(() => null) : [];
      const left = (max ?? 1) - claimed.length - (progressive?.length ?? 0);
      const predictive = progressive && left > 0 ? await dialer.claimPredictive(left, new Date(), agentFree).catch(() => null) : [];
      // The automated voice surveys' calls (no agent): what is left after the agents' calls.
      const voiceLeft = left - (predictive?.length ?? 0);
      const voice = progressive && predictive && voiceLeft > 0 ? await dialer.claimVoice(voiceLeft, new Date()).catch(() => null) : [];
      if (!progressive || !predictive || !voice) return reply.status(503).send({ error: 'UNAVAILABLE' });
      const dialed = [...progressive, ...predictive];
      if (!claimed.length && !dialed.length && !voice.length) {
        if (closing || !(await otpCallsDue.wait(until - Date.now(), since))) return reply.status(204).send();
        // The worker gave up on its ask meanwhile: a call claimed now would be placed by nobody.
        if (closing || request.raw.socket?.destroyed) return reply.status(204).send();
        continue;
      }
      const jobs: PlacedJob[] = [];
      for (const call of claimed) {
        const job = await jobOf(call);
        if (job) jobs.push(job);
      }
      for (const call of dialed) {
        const job = await dialerJobOf(call);
        if (job) jobs.push(job);
      }
      for (const call of voice) {
        const job = await voiceJobOf(call);
        if (job) jobs.push(job);
      }
      // Every claimed call failed to plan: ask the database again (more may be due), or wait.
      if (!jobs.length) continue;
      return max === undefined ? jobs[0] : { jobs };
    }
  });

  /**
   * A click-to-call as the worker places it (ADR 0066): leg A rings only the agent's extension — every phone registered
   * to it, no voicemail, no forward — showing "Gọi cho <number>"; it leaves no record of its own (a parent no call has:
   * the record is the customer's leg, the agent's own call out). The agent gone or busy since the click: failed, null.
   */
  async function clickJobOf(call: ClaimedCall): Promise<ClickToCallJob | null> {
    const state = await d.liveState(call.tenant_id, call.agent, await d.config(call.tenant_id, call.ma_dn));
    if (!state.registered.has(call.agent) || state.busy.has(call.agent)) {
      await crm.fail(call.tenant_id, call.id, 'agent_unavailable');
      return null;
    }
    const ring = crmAgentRingSeconds();
    const shown = nationalForm(call.phone);
    const source = { type: 'extension' as const, id: call.agent, name: crm.display(call.phone) };
    const plan: RoutingPlan = {
      direction: 'inbound', from: shown, to: call.agent, did: null, route: [source], interactive: false,
      steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: call.agent, timeout: ring }], timeout: ring, source }],
    };
    const token = await d.continuations.add({ parentCallId: `crm-${call.id}`, tenantId: call.tenant_id, maDn: call.ma_dn, plan });
    return { kind: 'click', id: call.id, tenant_id: call.tenant_id, attempt: call.attempt, token, caller: shown, display: crm.display(call.phone), ring_s: ring };
  }

  /** The agent's extension is registered and in no call now (the call plane's live state). */
  async function agentFree(tenantId: number, maDn: string, extension: string): Promise<boolean> {
    const state = await d.liveState(tenantId, extension, await d.config(tenantId, maDn));
    return state.registered.has(extension) && !state.busy.has(extension);
  }

  /**
   * The plan of a call out from `hotline` to `number`, as an agent's campaign call goes (its switchboard first); null when no
   * rule lets it out. Planned as a call the worker places itself (planPlacedCall): with planCall, a recording or supervising
   * tenant's plan began with a `bridge` step, not its `forward`, and every dialer and voice-OTP call of such a tenant
   * failed. A dialer call is recorded by the worker when it bridges the contact to the agent (DialerBridge.record_ticket).
   */
  async function outPlan(tenantId: number, maDn: string, hotline: string, number: string, campaignId: number): Promise<RoutingPlan | null> {
    const config = await d.config(tenantId, maDn);
    const state = { ...(await d.liveState(tenantId, hotline, config)), campaignCaller: { campaignId, hotline } };
    const plan = planPlacedCall(config, { from: hotline, to: nationalForm(number), direction: 'outbound', at: new Date() }, state);
    return plan.steps[0]?.kind === 'forward' ? plan : null;
  }

  /**
   * A dialer call is the agent's outbound call (ADR 0041, 0055): recorded when the agent's extension's own mode, else
   * the tenant's, records outbound calls. The ticket is for the call's record — leg A's Call-ID, which the agent's leg
   * joins — decided once the agent is known (a predictive call's only on its answer); null: not recorded.
   */
  async function recordTicket(tenantId: number, maDn: string, extension: string, callId: string | undefined): Promise<string | null> {
    if (!callId) return null;
    const config = await d.config(tenantId, maDn);
    return recordsDirection(extensionRecordingMode(config, extension), 'outbound') ? signRecordingTicket(tenantId, callId) : null;
  }

  /**
   * The contact's leg of a dialer call (a voice survey's too): a call of its own (no parent), out from the
   * hotline, so the call record, the wall and the recording see an outbound call from the hotline, which an
   * agent's leg (placed on the answer, below) joins as its answerer. What every such job carries; null, and
   * the call failed, when no rule lets it out.
   */
  async function contactLeg(call: DialerCallToPlace) {
    const plan = await outPlan(call.tenant_id, call.ma_dn, call.hotline, call.number, call.campaign_id);
    if (!plan) {
      await dialer.report(call.tenant_id, call.attempt_id, 'failed', {}, new Date());
      return null;
    }
    const token = await d.continuations.add({ tenantId: call.tenant_id, maDn: call.ma_dn, plan });
    return { id: String(call.attempt_id), tenant_id: call.tenant_id, attempt: 1, token, caller: call.hotline, ring_s: dialerRingSeconds(), campaign_id: call.campaign_id, contact_id: call.contact_id };
  }

  /** A dialer call as the worker places it. */
  async function dialerJobOf(call: DialerCallToPlace): Promise<DialerJob | null> {
    const leg = await contactLeg(call);
    return leg && { kind: 'dialer', ...leg };
  }

  /**
   * An automated voice survey's call as the worker places it: the contact's leg, and every prompt it will say, prepared
   * before it dials; a question with a recording names it (`audio_id`, the worker fetches it as an IVR's greeting), its
   * `say` kept for a file the worker cannot play.
   */
  async function voiceJobOf(call: VoiceCallToPlace): Promise<VoiceSurveyJob | null> {
    const leg = await contactLeg(call);
    return leg && {
      kind: 'voice', ...leg,
      intro: `Xin chào quý khách. Đây là cuộc khảo sát tự động của ${call.campaign_name}. Quý khách vui lòng trả lời bằng cách bấm phím trên điện thoại.`,
      questions: call.questions.map((q) => ({ question_id: q.id, kind: q.kind, say: voiceQuestionPrompt(q), options: q.kind === 'single' ? q.options.length : 0, audio_id: q.audio_id })),
      thanks: 'Xin cảm ơn quý khách đã tham gia khảo sát. Xin chào.',
    };
  }

  /** A claimed call as the worker places it: its plan's token; null (and the call failed) when it cannot go out. */
  async function jobOf(call: DueCall): Promise<OriginateJob | null> {
    if (!call.hotline) {
      await otp.recordCallOutcome(call.tenant_id, call.id, 'failed');
      return null;
    }
    const hotline = nationalForm(call.hotline);
    const plan = await outPlan(call.tenant_id, call.ma_dn, hotline, call.phone, 0);
    // No rule lets the number out (or the configuration refuses it): nothing to place.
    if (!plan) {
      await otp.recordCallOutcome(call.tenant_id, call.id, 'failed');
      return null;
    }
    const token = await d.continuations.add({ parentCallId: `otp-${call.id}`, tenantId: call.tenant_id, maDn: call.ma_dn, plan });
    return { id: call.id, tenant_id: call.tenant_id, attempt: call.call_attempts, token, caller: hotline, code: call.code, ring_s: ringSeconds() };
  }

  app.post('/internal/sip/media/originated', async (request, reply) => {
    if ((request.body as { kind?: unknown } | null)?.kind === 'dialer') return dialed(request.body, reply);
    if ((request.body as { kind?: unknown } | null)?.kind === 'click') return clicked(request.body, reply);
    const b = v.safeParse(OriginatedBody, request.body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    // A report the worker sent again (its answer was lost) or about an earlier attempt: taken, ignored.
    // The talk time in whole seconds, as every call record keeps it (the worker measures tenths: 21.3 into
    // the int column was a 400, and the call stayed "answered" for good — the flake of the nineteenth session).
    const duration = b.output.duration_s == null ? null : Math.round(b.output.duration_s);
    const applied = await otp.recordCallOutcome(b.output.tenant_id, b.output.id, b.output.outcome, duration, b.output.attempt);
    return { ok: true, applied };
  });

  /**
   * A click-to-call's report (ADR 0066). `agent_answered` is answered with the customer's leg: the plan of the agent
   * dialling the number from their extension (outbound rules, blocked-outgoing list, the rule's caller ID and
   * switchboards), as a call of its own that the agent's extension places (the record's caller); a refusal now
   * fails the call `refused` and answers no leg (the worker hangs the agent up).
   */
  async function clicked(body: unknown, reply: FastifyReply): Promise<CrmCallReportAnswer | FastifyReply> {
    const b = v.safeParse(ClickReportBody, body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const r = b.output;
    const { applied, call } = await crm.report(r.tenant_id, r.id, r.outcome, { callId: r.call_id ?? null, durationS: r.duration_s ?? null });
    if (r.outcome !== 'agent_answered' || !applied || !call) return { ok: true, applied };
    const maDn = await d.tenantCode(r.tenant_id);
    const config = maDn ? await d.config(r.tenant_id, maDn) : null;
    const plan = config && maDn ? customerPlan(config, call.agent, call.phone, await d.liveState(r.tenant_id, call.agent, config), new Date()) : null;
    if (!plan || !maDn || plan.steps[0]?.kind !== 'forward') {
      await crm.fail(r.tenant_id, r.id, 'refused');
      return { ok: true, applied, customer: null };
    }
    const token = await d.continuations.add({ tenantId: r.tenant_id, maDn, plan, callerExtension: call.agent });
    await crm.customerRinging(r.tenant_id, r.id);
    return { ok: true, applied, customer: { token, ring_s: crmRingSeconds(), caller: call.agent } };
  }

  /**
   * A dialer call's report (issue 34). `answered` is answered with the agent's leg: a continuation that
   * rings the agent's extension alone (no voicemail, no forward: an abandoned call is the dialer's to
   * count), under leg A's Call-ID so the agent answers the contact's call record; with the recording's
   * ticket when the agent's (or the tenant's) mode records the call (recordTicket).
   */
  async function dialed(body: unknown, reply: FastifyReply): Promise<DialerReportAnswer | FastifyReply> {
    const b = v.safeParse(DialerReportBody, body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const r = b.output;
    const effect = await dialer.report(r.tenant_id, Number(r.id), r.outcome, { callId: r.call_id ?? null, durationS: r.duration_s ?? null, status: r.status ?? null, answers: r.answers ?? null }, new Date());
    if (r.outcome !== 'answered') return { ok: true, applied: effect.applied };
    const maDn = (effect.bridge || effect.needsAgent) && (await d.tenantCode(r.tenant_id));
    // Predictive: the agent free longest, found within the regulators' 2 s (else the contact hears the message).
    const target = effect.bridge ?? (effect.needsAgent && maDn ? await dialer.bridgeFor(r.tenant_id, Number(r.id), agentFree, maDn) : null);
    if (!target || !maDn) return { ok: true, applied: effect.applied, bridge: null };
    const ring = agentRingSeconds();
    const source = { type: 'extension' as const, id: target.extension, name: `Chiến dịch ${target.campaign_id}` };
    const plan: RoutingPlan = {
      direction: 'inbound', from: target.shown, to: target.extension, did: null, route: [source], interactive: false,
      steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: target.extension, timeout: ring }], timeout: ring, source }],
    };
    const token = await d.continuations.add({ parentCallId: r.call_id, tenantId: r.tenant_id, maDn, plan });
    const ticket = await recordTicket(r.tenant_id, maDn, target.extension, r.call_id);
    return { ok: true, applied: effect.applied, bridge: { token, ring_s: ring, caller: target.shown, campaign: `${target.campaign_id};contact=${target.contact_id}`, record_ticket: ticket } };
  }
}
