import { CSAT_SCORE, isMailboxName, sipDomain, type PbxConfig } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/db';
import type { DialerFiguresMoved } from '../campaigns/dialer-live.service';
import { recordsAtWorker, recordsContinuation, type LiveState } from '../routing';
import { signRecordingTicket } from '../recordings/recordings.service';
import type { CallTracker } from '../cdr/call-tracker';
import { rateRecordedCall } from '../cdr/cdr.service';
import { createVoicemailService } from '../voicemail/voicemail.service';
import { continuationPlan, csatLeg, MEDIA_KINDS, mediaStepOf, sessionMayRate, type ContinuationStore } from './continuation';
import { registerOriginateRoutes } from './originate.routes';

export interface MediaRouteDeps {
  db: Db;
  tracker: CallTracker;
  continuations: ContinuationStore;
  config(tenantId: number, maDn: string): Promise<PbxConfig>;
  liveState(tenantId: number, caller: string, config: PbxConfig): Promise<LiveState>;
  /** The tenant's code (its SIP domain), for a continuation of a call the API knows only by tenant id. */
  tenantCode(tenantId: number): Promise<string | null>;
  /** The caller entered a queue (the worker asked for its queue step): the live state's waiting caller. */
  onQueued?(callId: string, queueId: number, agents: string[]): void;
  /** A dialer campaign's figures moved (originate.routes). */
  dialerMoved?: DialerFiguresMoved;
  /** Resolves once every call record handed to the writer so far is in the database (a CSAT that comes after its call ended). */
  recorded?(): Promise<void>;
}

const SessionQuery = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  step: v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number)),
  /** The asking worker's SIP address ("host:port", as Kamailio's dispatcher names it): where a supervisor joining this call is sent (ADR 0042). */
  worker: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Za-z.-]{1,253}:\d{1,5}$/))),
});
const ContinueBody = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  step: v.pipe(v.number(), v.integer(), v.minValue(0)),
  choice: v.variant('kind', [
    v.object({ kind: v.literal('next') }),
    v.object({ kind: v.literal('digits'), digits: v.pipe(v.string(), v.regex(/^[0-9*#]{1,8}$/)) }),
    v.object({ kind: v.literal('timeout') }),
    v.object({ kind: v.literal('invalid') }),
    v.object({ kind: v.literal('queue_agents') }),
    v.object({ kind: v.literal('queue_timeout') }),
  ]),
});
const CsatBody = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  step: v.pipe(v.number(), v.integer(), v.minValue(0)),
  score: v.unknown(),
});
const CsatScore = v.pipe(v.number(), v.integer(), v.minValue(CSAT_SCORE.min), v.maxValue(CSAT_SCORE.max));
const VoicemailQuery = v.object({
  tenant_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)),
  mailbox: v.pipe(v.string(), v.check(isMailboxName)),
  caller: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
});
const MailboxBody = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  step: v.pipe(v.number(), v.integer(), v.minValue(0)),
  mailbox: v.pipe(v.string(), v.check(isMailboxName)),
  pin: v.nullable(v.pipe(v.string(), v.regex(/^\d{1,8}$/))),
});
const MessageQuery = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  step: v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number))]), v.integer(), v.minValue(0)),
  id: v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))]), v.integer(), v.minValue(1)),
  action: v.optional(v.picklist(['heard', 'delete'])),
});
const AudioQuery = v.object({
  tenant_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)),
  id: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)),
});

/**
 * The media worker's side of the internal listener (docs/adr/0012-media-worker.md):
 *   GET  /internal/sip/media/session?call_id&step   what the Kamailio step `step` of the call asks for
 *   POST /internal/sip/media/continue               where the caller goes next → a one-use token
 *   POST /internal/sip/media/csat                   the score a caller gave the call (issue 34: a queue's, an inbound route's)
 *   GET  /internal/sip/media/audio?tenant_id&id     a greeting / music file's bytes
 *   POST /internal/sip/media/originate(d)           calls the worker places itself (originate.routes.ts)
 * Kamailio fetches the plan of a token with GET /route?source=media&continue=<token>.
 */
export function registerMediaRoutes(app: FastifyInstance, d: MediaRouteDeps): void {
  registerOriginateRoutes(app, d);
  /**
   * Post-call CSAT (issue 34): the media sessions ("callId:step") told to ask their caller, and the
   * call whose record the score goes on (the session's call, or the call it is a leg of). Kept from
   * the continue's answer (a queue's agents, a route's bridge or IVR leg, ADR 0056), because the score
   * may come after the caller hung up, when the tracker no longer knows the session or its root.
   * Bounded like `opened` below; a restart forgets it (the live call is then still found through the
   * tracker).
   */
  const csatAsked = new Map<string, { tenantId: number; recordCallId: string }>();
  /** The call and the routing-plan step behind Kamailio's step index. */
  const located = (callId: string, kstep: number) => {
    const call = d.tracker.get(callId);
    const k = call?.kamailio.steps[kstep];
    if (!call || !k || k.do !== 'media' || !call.maDn) return null;
    const step = call.plan.steps[k.from_step];
    return step && MEDIA_KINDS.has(step.kind) ? { call, maDn: call.maDn, stepIndex: k.from_step, step } : null;
  };

  app.get('/internal/sip/media/session', async (request, reply) => {
    const q = v.safeParse(SessionQuery, request.query);
    if (!q.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const found = located(q.output.call_id, q.output.step);
    if (!found) return reply.status(404).send({ error: 'NO_MEDIA_STEP' });
    if (q.output.worker) d.tracker.servedBy(found.call.callId, q.output.worker);
    const config = await d.config(found.call.tenantId, found.maDn);
    if (found.step.kind === 'queue') d.onQueued?.(found.call.callId, found.step.queueId, found.step.agents.map((a) => a.extension));
    return {
      call_id: found.call.callId,
      tenant_id: found.call.tenantId,
      domain: sipDomain(found.maDn),
      caller: found.call.caller,
      step: mediaStepOf(found.step, config),
      has_next: found.stepIndex + 1 < found.call.plan.steps.length,
      record_call_id: d.tracker.rootOf(found.call.callId),
      direction: found.call.plan.direction,
      // The worker that first takes a call records it when the plan or its step says so (ADR 0041);
      // legs it places (continuations) are recorded by it, never again by the worker they reach.
      record_ticket:
        !found.call.parentCallId && recordsAtWorker(config, found.step, found.call.plan.direction) ? signRecordingTicket(found.call.tenantId, found.call.callId) : null,
    };
  });

  app.post('/internal/sip/media/continue', async (request, reply) => {
    const b = v.safeParse(ContinueBody, request.body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const found = located(b.output.call_id, b.output.step);
    if (!found) return reply.status(404).send({ error: 'NO_MEDIA_STEP' });
    const { call, maDn } = found;
    const config = await d.config(call.tenantId, maDn);
    const state = await d.liveState(call.tenantId, call.caller, config);
    const input = { from: call.caller, to: call.callee, direction: call.plan.direction, at: new Date(), ...(call.callerExtension ? { fromExtension: call.callerExtension } : {}) };
    const next = continuationPlan(config, call.plan, found.stepIndex, b.output.choice, input, state);
    if (next === 'invalid') return { token: null, invalid: true };
    if (!next) return { token: null };
    // A queue, or an inbound route, that asks its callers to rate the call: the worker asks once the leg it
    // places has been answered and ends (ADR 0056). A queue further on in that leg (or in a leg placed from
    // it) does not ask again.
    const csat = csatLeg(config, call.plan, found.stepIndex, b.output.choice, next);
    const plan = csat || call.plan.csatAbove ? { ...next, csatAbove: true as const } : next;
    const token = await d.continuations.add({ parentCallId: call.callId, tenantId: call.tenantId, maDn, plan });
    // After an IVR or announcement the extension (or queue) reached decides, when the worker's session did not record
    // (ADR 0041): the worker records the leg it places from its answer. A queue's agents are the queue's business.
    const records = !call.parentCallId && b.output.choice.kind !== 'queue_agents' && recordsContinuation(config, next, call.callerExtension ?? undefined);
    if (csat) {
      if (csatAsked.size > 10_000) csatAsked.clear();
      csatAsked.set(`${call.callId}:${b.output.step}`, { tenantId: call.tenantId, recordCallId: d.tracker.rootOf(call.callId) });
    }
    return { token, ...(records ? { record_ticket: signRecordingTicket(call.tenantId, call.callId) } : {}), ...(csat ? { csat: true } : {}) };
  });

  // Post-call CSAT (issue 34): the key 1–5 the caller pressed after the agent hung up. It rates the call
  // the caller made (its record, whose extension is the agent who answered, ADR 0045), once: a repeat
  // (the worker retrying) is 200 { applied: false }. The caller is mostly still on the line; the score
  // then goes with the record when it is written, else onto the record already written and its rollups.
  app.post('/internal/sip/media/csat', async (request, reply) => {
    const b = v.safeParse(CsatBody, request.body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const score = v.safeParse(CsatScore, b.output.score);
    if (!score.success) return reply.status(400).send({ error: 'BAD_CSAT_SCORE', min: CSAT_SCORE.min, max: CSAT_SCORE.max });
    const { call_id: callId, step } = b.output;
    let asked = csatAsked.get(`${callId}:${step}`);
    if (!asked) {
      // Not asked by this process (another instance answered the continue, or it restarted): a live
      // session at a step that asks (a queue that asks, a route's CSAT bridge…) is enough.
      const found = located(callId, step);
      if (found && sessionMayRate(await d.config(found.call.tenantId, found.maDn), found.call.plan, found.stepIndex)) {
        asked = { tenantId: found.call.tenantId, recordCallId: d.tracker.rootOf(found.call.callId) };
      }
    }
    if (!asked) return reply.status(404).send({ error: 'NO_CSAT_CALL' });
    let outcome: string | null = d.tracker.rate(asked.recordCallId, score.output);
    if (!outcome) {
      // The call has ended here: its record is written, or about to be (the writer's batch).
      await d.recorded?.();
      outcome = await rateRecordedCall(d.db, asked.tenantId, asked.recordCallId, score.output);
    }
    if (outcome === 'applied') return { applied: true };
    if (outcome === 'already_rated') return { applied: false };
    if (outcome === 'not_answered') return reply.status(409).send({ error: 'CALL_NOT_ANSWERED' });
    return reply.status(404).send({ error: 'NO_CALL_RECORD' });
  });

  // The worker's recording of a voicemail step (8 kHz 16-bit mono WAV, at most 600 s: 9.6 MB). It
  // comes once the caller has hung up, when the call may have left the tracker: the worker names
  // what its session told it, and the mailbox must be one of that tenant's.
  const voicemail = createVoicemailService(d.db);
  app.addContentTypeParser('audio/wav', { parseAs: 'buffer', bodyLimit: 10 * 1024 * 1024 }, (_req, body, done) => done(null, body));
  app.post('/internal/sip/media/voicemail', async (request, reply) => {
    const q = v.safeParse(VoicemailQuery, request.query);
    if (!q.success || !Buffer.isBuffer(request.body)) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const { tenant_id: tenantId, mailbox, caller, call_id: callId } = q.output;
    if (!(await voicemail.mailboxExists(tenantId, mailbox))) return reply.status(404).send({ error: 'NO_MAILBOX' });
    const stored = await voicemail.store({ tenantId, mailbox, caller, callId, bytes: request.body });
    if (!stored) return reply.status(400).send({ error: 'NOT_WAV' });
    return reply.status(201).send(stored);
  });

  // The voicemail menu (*97 / *98, issue 16). A call's worker opens a mailbox once (the API checks
  // the PIN), then reads and changes only that mailbox's messages, and only while the call lasts.
  const opened = new Map<string, { tenantId: number; mailbox: string }>();
  const openedBy = (callId: string, step: number) => {
    const found = located(callId, step);
    const box = opened.get(callId);
    if (!found || found.step.kind !== 'mailbox') {
      opened.delete(callId);
      return null;
    }
    return box && box.tenantId === found.call.tenantId ? box : null;
  };
  app.post('/internal/sip/media/mailbox', async (request, reply) => {
    const b = v.safeParse(MailboxBody, request.body);
    if (!b.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const found = located(b.output.call_id, b.output.step);
    if (!found || found.step.kind !== 'mailbox') return reply.status(404).send({ error: 'NO_MEDIA_STEP' });
    // *97 names the caller's own mailbox; *98 takes the one typed.
    const mailbox = found.step.mailbox ?? b.output.mailbox;
    const r = await voicemail.openByPhone(found.call.tenantId, mailbox, found.call.callerExtension, b.output.pin);
    if ('messages' in r) {
      if (opened.size > 10_000) opened.clear();
      opened.set(found.call.callId, { tenantId: found.call.tenantId, mailbox });
    }
    return r;
  });
  app.get('/internal/sip/media/mailbox/message', async (request, reply) => {
    const q = v.safeParse(MessageQuery, request.query);
    if (!q.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const box = openedBy(q.output.call_id, q.output.step);
    const bytes = box && (await voicemail.audioInBox(box.tenantId, box.mailbox, q.output.id));
    if (!bytes) return reply.status(404).send({ error: 'NOT_FOUND' });
    return reply.type('audio/wav').header('cache-control', 'no-store').send(bytes);
  });
  app.post('/internal/sip/media/mailbox/message', async (request, reply) => {
    const b = v.safeParse(MessageQuery, request.body);
    if (!b.success || !b.output.action) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const box = openedBy(b.output.call_id, b.output.step);
    const done = box && (b.output.action === 'delete' ? await voicemail.deleteInBox(box.tenantId, box.mailbox, b.output.id) : await voicemail.heardInBox(box.tenantId, box.mailbox, b.output.id));
    if (!done) return reply.status(404).send({ error: 'NOT_FOUND' });
    return { ok: true };
  });

  app.get('/internal/sip/media/audio', async (request, reply) => {
    const q = v.safeParse(AudioQuery, request.query);
    if (!q.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const row = await d.db.withTenant(q.output.tenant_id, async (tx) => {
      const { rows } = await tx.query<{ mime: string; bytes: Buffer | Uint8Array }>('select mime, bytes from pbx_audio where id = $1', [q.output.id]);
      return rows[0] ?? null;
    });
    if (!row) return reply.status(404).send({ error: 'NOT_FOUND' });
    const bytes = Buffer.from(row.bytes);
    return reply.type(row.mime).header('content-length', bytes.length).header('cache-control', 'no-store').send(bytes);
  });
}
