import { MediaApi } from './api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioLibrary } from './audio/library';
import { RecordingSpool } from './audio/recording-spool';
import { MediaCall, type DialogKey } from './call/media-call';
import { AGENT_ANSWERED_REPORT_MS, ClickCall, type ClickCallReport, type ClickToCallJob } from './call/click-call';
import { ANSWERED_REPORT_MS, DialerCall, type DialerCallReport, type DialerJob } from './call/dialer-call';
import { OtpCall, type OriginateReport } from './call/otp-call';
import { placedKey, type PlacedCall } from './call/placed-leg';
import { VoiceSurveyCall, type VoiceSurveyJob } from './call/voice-survey-call';
import { CLOCK } from './rtp/session';
import { SipEndpoint, type Remote } from './sip/endpoint';
import { header, isInitial, param, type SipRequest } from './sip/message';
import type { PlacedJob } from '@tongdai/contracts';

export interface WorkerOptions {
  /** Address the worker binds SIP and RTP to. */
  address: string;
  /** Address it announces in Via, Contact and SDP (default: `address`). */
  announce?: string;
  /** SIP UDP port (0: any free one). */
  port: number;
  /** The API's internal listener, e.g. http://127.0.0.1:4001/internal/sip; several comma-separated with two API instances (ADR 0059). */
  apiUrl: string;
  /** The internal listener's shared secret (the API's INTERNAL_SECRET). */
  apiSecret: string;
  /** Kamailio's UDP address, where the worker places the calls that move a caller on. */
  proxy: Remote;
  /**
   * Where recordings wait until the API has them (issue 41): this worker's own folder, the same
   * across its restarts (what a killed process left is handed over by the next). Default: a folder
   * per port under the system's temporary directory.
   */
  spoolDir?: string;
  /**
   * How long the worker waits before asking the API for a call to place again after an ask failed
   * or came back at once (voice-OTP, ADR 0052); 0: it never asks (no OTP calls from this worker).
   */
  originatePollMs?: number;
  /**
   * How long the API may hold an ask while no call is due (a long poll, default 10 s): a start or a
   * retry's time answers it at once, so the call is placed within the second without the worker
   * asking the database every half second (each ask is a transaction, and on PGlite's one connection
   * asks twice a second were suspected of holding back call events under load).
   */
  originateWaitMs?: number;
  /**
   * A placed call's reports while the API does not take them: the first wait between tries (default
   * 500 ms), doubled up to `reportRetryCapMs` (default 10 s), for `reportBudgetMs` (default 15 min).
   */
  reportRetryMs?: number;
  reportRetryCapMs?: number;
  reportBudgetMs?: number;
  log?: (msg: string) => void;
}

export interface RunningWorker {
  port: number;
  /** Calls in progress (for health and tests). */
  calls(): number;
  /** RTP frames the clock could not send in time since start (the bench's lost frames). */
  droppedFrames(): number;
  stop(): void;
}

/**
 * The media worker: a SIP UDP endpoint Kamailio's dispatcher sends media steps to (and pings
 * with OPTIONS). Each INVITE becomes a MediaCall; requests inside its dialogs are routed to it by
 * Call-ID.
 */
export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const log = o.log ?? ((m: string) => console.error(`[media] ${m}`));
  const ep = await SipEndpoint.listen(o.address, o.port, o.announce ?? o.address);
  const api = new MediaApi(o.apiUrl, o.apiSecret);
  const audio = new AudioLibrary(api, log);
  // Bound to the port first: another live process of this worker cannot be sharing its spool.
  const spool = new RecordingSpool(o.spoolDir ?? join(tmpdir(), 'tongdai-recording-spool', String(ep.port)), (r, mp3) => api.recording(r, mp3), log);
  spool.recover();
  // Dialogs by Call-ID and our tag; calls we took by Call-ID and the caller's tag (before our
  // answer); and by Call-ID alone the first call holding it, for a supervisor naming it (ADR 0042).
  const dialogs = new Map<string, MediaCall>();
  const taken = new Map<string, MediaCall>();
  const byCallId = new Map<string, MediaCall>();
  const ctx = {
    ep,
    api,
    audio,
    spool,
    proxy: o.proxy,
    log,
    track: (d: DialogKey, call: MediaCall | null) => {
      const key = `${d.callId} ${d.localTag}`;
      const owner = call ?? dialogs.get(key);
      if (call) {
        dialogs.set(key, call);
        if (d.remoteTag !== undefined) taken.set(`${d.callId} ${d.remoteTag}`, call);
        if (!byCallId.has(d.callId)) byCallId.set(d.callId, call);
        return;
      }
      dialogs.delete(key);
      if (d.remoteTag !== undefined) taken.delete(`${d.callId} ${d.remoteTag}`);
      if (owner && byCallId.get(d.callId) === owner) byCallId.delete(d.callId);
    },
    find: (callId: string) => byCallId.get(callId),
    self: `${o.announce ?? o.address}:${ep.port}`,
  };
  // Calls this worker places itself, by "Call-ID our-tag" (our tag is the To tag of what the callee sends).
  // (A dialer call holds two: the contact's leg and the agent's.)
  const placed = new Map<string, PlacedCall>();
  const placing = { ep, proxy: o.proxy, log, spool, track: (key: string, call: PlacedCall | null) => (call ? placed.set(key, call) : placed.delete(key)) };
  // Voice survey calls whose prompts are being spoken: not placed yet (no dialog), but counted and stopped like those that are.
  const preparing = new Set<PlacedCall>();
  const placedCalls = () => new Set([...placed.values(), ...preparing]);
  let polling = true;
  // Ends a held ask when the worker stops (it would otherwise keep the process up to a wait longer).
  const asking = new AbortController();
  const pollMs = o.originatePollMs ?? 1500;
  const waitMs = o.originateWaitMs ?? 10_000;
  const poll = async (): Promise<void> => {
    while (polling) {
      const asked = Date.now();
      // undefined: the ask failed (an API restarting or away); null: nothing due within the wait.
      const jobs = await api.originate(ctx.self, waitMs, asking.signal).catch(() => undefined);
      if (!polling) return;
      if (!jobs?.length) {
        // Asked again at once after a held ask; after a failure, or an answer that came back at once
        // (another worker took the call that woke both), a pause first.
        if (jobs === undefined || Date.now() - asked < Math.min(waitMs, 250)) await new Promise((r) => setTimeout(r, pollMs).unref());
        continue;
      }
      for (const job of jobs) await place(job);
    }
  };
  /**
   * A report sent until the API takes it, `firstWaitMs` doubled between tries up to REPORT_RETRY_CAP_MS (a
   * busy or restarting API): for `budgetMs` when someone waits on the answer (each try's timeout is what is
   * left of it), else for REPORT_BUDGET_MS. A call's end must reach the API even after a restart that took
   * longer than the six tries of about 16 s this once allowed (a bridged call then waited for the 4-hour
   * sweep, a voice survey's answers were lost). undefined: never taken.
   */
  const firstRetry = o.reportRetryMs ?? 500;
  const retryCap = o.reportRetryCapMs ?? 10_000;
  const reportBudget = o.reportBudgetMs ?? 15 * 60_000;
  const persist = async <T>(what: string, send: (timeoutMs: number) => Promise<T>, w: { firstWaitMs: number; budgetMs?: number }): Promise<T | undefined> => {
    const until = Date.now() + (w.budgetMs ?? reportBudget);
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(Math.max(1, Math.min(10_000, until - Date.now())));
      } catch (e) {
        if (attempt < 6 || attempt % 10 === 0) log(`${what} not taken (try ${attempt + 1}): ${e}`);
        const wait = Math.min(retryCap, w.firstWaitMs * 2 ** Math.min(attempt, 20));
        if (!polling || Date.now() + wait >= until) {
          log(`${what} given up after ${attempt + 1} tries`);
          return undefined;
        }
        await new Promise((ok) => setTimeout(ok, wait));
      }
    }
  };
  /** One claimed call, placed (a voice-OTP call, or the dialer's or a voice survey's by its kind). */
  const place = async (job: PlacedJob): Promise<void> => {
    if (job.kind === 'dialer') return placeDialer(job);
    if (job.kind === 'voice') return placeVoice(job);
    if (job.kind === 'click') return placeClick(job);
    // Reports in order, each tried again with backoff while the API does not take it.
    let reports = Promise.resolve();
    const report = async (r: OriginateReport) => void (await persist(`otp ${job.id}: report ${r.outcome}`, () => api.originated(job, r), { firstWaitMs: firstRetry }));
    const call = new OtpCall(placing, job, (r) => void (reports = reports.then(() => report(r))));
    await call.start().catch((e) => log(`otp ${job.id}: ${e instanceof Error ? e.stack : e}`));
  };
  /** The call orders its reports; the contact waits on `answered`: tried for ANSWERED_REPORT_MS at the most. */
  const dialerReporter = (what: string, job: DialerJob | VoiceSurveyJob) => async (r: DialerCallReport) => {
    const budget = r.outcome === 'answered' ? { firstWaitMs: 250, budgetMs: ANSWERED_REPORT_MS } : { firstWaitMs: firstRetry };
    return (await persist(`${what} ${job.id}: report ${r.outcome}`, (ms) => api.dialerReport(job, r, ms), budget)) ?? null;
  };
  const placeDialer = async (job: DialerJob): Promise<void> => {
    const call = new DialerCall(placing, job, dialerReporter('dialer', job));
    await call.start().catch((e) => log(`dialer ${job.id}: ${e instanceof Error ? e.stack : e}`));
  };
  /** A CRM's click-to-call (ADR 0066): its reports in order; the agent waits on `agent_answered`, tried for AGENT_ANSWERED_REPORT_MS at the most. */
  const placeClick = async (job: ClickToCallJob): Promise<void> => {
    const report = async (r: ClickCallReport) => {
      const budget = r.outcome === 'agent_answered' ? { firstWaitMs: 250, budgetMs: AGENT_ANSWERED_REPORT_MS } : { firstWaitMs: firstRetry };
      return (await persist(`click ${job.id}: report ${r.outcome}`, (ms) => api.clickReport(job, r, ms), budget)) ?? null;
    };
    const call = new ClickCall(placing, job, report);
    await call.start().catch((e) => log(`click ${job.id}: ${e instanceof Error ? e.stack : e}`));
  };
  /**
   * A voice survey call reports as a dialer call does (the API's bridge is ignored). Not awaited: its
   * prompts are prepared first (espeak-ng, up to a second or so a text not spoken before; a question's
   * recording fetched from the API through the greetings' cache), and the other jobs of the same ask
   * must not wait on that to ring.
   */
  const placeVoice = (job: VoiceSurveyJob): void => {
    const call = new VoiceSurveyCall(placing, job, dialerReporter('voice', job), audio);
    preparing.add(call);
    call
      .start()
      .catch((e) => log(`voice ${job.id}: ${e instanceof Error ? e.stack : e}`))
      .finally(() => preparing.delete(call));
  };
  if (pollMs > 0) void poll();
  ep.onRequest = (req: SipRequest, from: Remote) => {
    const mine = placed.get(placedKey(req));
    if (mine) return mine.onRequest(req, from);
    const callId = header(req, 'call-id') ?? '';
    const toTag = param(header(req, 'to') ?? '', 'tag');
    const call = toTag !== undefined ? dialogs.get(`${callId} ${toTag}`) : taken.get(`${callId} ${param(header(req, 'from') ?? '', 'tag') ?? ''}`);
    // (An initial INVITE sent again before our answer reached the caller: the call has it already.)
    if (call) return toTag === undefined && req.method === 'INVITE' ? undefined : call.onRequest(req, from);
    if (req.method === 'INVITE' && !isInitial(req)) return void ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
    if (req.method === 'INVITE') return void new MediaCall(ctx, req, from).start().catch((e) => log(`INVITE ${callId}: ${e instanceof Error ? e.stack : e}`));
    if (req.method === 'OPTIONS') return void ep.respond(req, from, 200, 'OK', [['accept', 'application/sdp']]);
    if (req.method === 'ACK') return;
    ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
  };
  return {
    port: ep.port,
    calls: () => new Set(dialogs.values()).size + placedCalls().size,
    droppedFrames: () => CLOCK.dropped,
    stop: () => {
      polling = false;
      asking.abort();
      for (const c of placedCalls()) c.stop();
      for (const c of new Set(dialogs.values())) c.hangup();
      spool.close();
      ep.close();
    },
  };
}
