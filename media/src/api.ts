import type { OriginateJob, OriginateReport } from './call/otp-call';
import type { DialerCallReport } from './call/dialer-call';
import type { CrmCallReport, CrmCallReportAnswer, CsatReport, DialerReport, DialerReportAnswer, MailboxOpened, MediaChoice as Choice, MediaContinue, MediaSession, PlacedJob } from '@tongdai/contracts';

/**
 * The worker's view of the API's internal listener (the same loopback/private port Kamailio uses;
 * never public): what a media step must do, the audio files, and where the caller goes next.
 */

export type { MediaChoice as Choice, MediaSession, MediaStep } from '@tongdai/contracts';

/**
 * How many due OTP calls one ask may take: a burst of starts is claimed in a few transactions, not
 * one per call (`npm run bench -- otp`: 100 starts, one call per ask, rang 2.5 s / 4 s p50 / p99 after
 * their start on PGlite's one connection).
 */
export const ORIGINATE_BATCH = 20;

export class MediaApi {
  private readonly bases: string[];
  /** The base that answered last: asked first next time. */
  private current = 0;

  /**
   * `base`: the internal listener's URL, or several (an array, or comma-separated: MEDIA_API_URL) when
   * several API instances run: a request one refuses (down, or standing by for the call plane: 503,
   * ADR 0059) is asked of the next. `secret`: the shared secret (MEDIA_API_SECRET), sent on every request (ADR 0019).
   */
  constructor(
    base: string | string[],
    private readonly secret: string,
  ) {
    this.bases = (Array.isArray(base) ? base : base.split(',')).map((b) => b.trim().replace(/\/+$/, '')).filter(Boolean);
    if (!this.bases.length) throw new Error('no API URL for the media worker');
  }

  /**
   * With several instances, while the call plane passes from one to the other (a rolling restart: one
   * stopped, the other still taking the calls over, ADR 0059) none may answer for a moment: a request
   * every instance refused (503, or no connection) is asked again every 0.2 s for up to `failoverMs`.
   */
  failoverMs = 4000;

  private async get(path: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    const end = Date.now() + (this.bases.length > 1 ? this.failoverMs : 0);
    for (;;) {
      const r = await this.once(path, init, timeoutMs).then((res) => ({ res }), (err: { name?: string }) => ({ err }));
      // No connection (ECONNREFUSED…) counts as refused; a timeout does not (the request may have been taken).
      const refused = 'res' in r ? r.res.status === 503 : !init.signal?.aborted && r.err?.name !== 'TimeoutError' && r.err?.name !== 'AbortError';
      if (!refused || Date.now() >= end) {
        if ('err' in r) throw r.err;
        return r.res;
      }
      if ('res' in r) await r.res.body?.cancel().catch(() => undefined);
      await new Promise((done) => setTimeout(done, 200));
    }
  }

  /** One round over the instances, the last that answered first: the first answer but a 503 (the last one's, whatever it is). */
  private async once(path: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    const headers = { ...(init.headers as Record<string, string> | undefined), 'x-tongdai-internal': this.secret };
    let failure: unknown;
    for (let i = 0; i < this.bases.length; i++) {
      const at = (this.current + i) % this.bases.length;
      const last = i === this.bases.length - 1;
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const res = await fetch(`${this.bases[at]}${path}`, { ...init, headers, signal: init.signal ? AbortSignal.any([timeout, init.signal]) : timeout });
        if (res.status === 503 && !last) {
          await res.body?.cancel().catch(() => undefined);
          continue;
        }
        this.current = at;
        return res;
      } catch (e) {
        if (init.signal?.aborted || last) throw e;
        failure = e;
      }
    }
    throw failure;
  }

  private async json<T>(path: string, init: RequestInit = {}): Promise<T | null> {
    const res = await this.get(path, init, 3000);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  }

  /** `worker`: this worker's "host:port", where the API sends supervisors joining the call (ADR 0042). */
  session(callId: string, step: number, worker?: string): Promise<MediaSession | null> {
    return this.json(`/media/session?call_id=${encodeURIComponent(callId)}&step=${step}${worker ? `&worker=${encodeURIComponent(worker)}` : ''}`);
  }

  /**
   * Where the caller goes after `choice`: a token to dial through Kamailio, or none (the plan ends:
   * hang up). `invalid`: the digits typed lead nowhere (the IVR asks again).
   */
  async next(callId: string, step: number, choice: Choice): Promise<MediaContinue> {
    const r = await this.json<MediaContinue>('/media/continue', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, step, choice }),
    });
    return r ?? { token: null };
  }

  /**
   * A voicemail step's recording (WAV) for `mailbox`, named as the call's session gave it (the call
   * may have ended in the API by now); throws when the API did not store it.
   */
  async voicemail(m: { tenantId: number; mailbox: string; caller: string; callId: string }, wav: Buffer): Promise<void> {
    const q = new URLSearchParams({ tenant_id: String(m.tenantId), mailbox: m.mailbox, caller: m.caller, call_id: m.callId });
    const res = await this.get(`/media/voicemail?${q}`, { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: wav }, 15_000);
    if (res.status !== 201) throw new Error(`/media/voicemail: HTTP ${res.status}`);
  }

  /**
   * A bridged call's recording (MP3, caller left, other party right) with the ticket its session
   * carried: the API files it under the tenant the ticket names (ADR 0041). Throws when not stored:
   * with the API's `status` when it answered, without when it could not be reached.
   */
  async recording(r: { callId: string; ticket: string; startedAt: Date; seconds: number }, mp3: Buffer): Promise<void> {
    const q = new URLSearchParams({ call_id: r.callId, ticket: r.ticket, started_at: r.startedAt.toISOString(), duration: r.seconds.toFixed(2) });
    const res = await this.get(`/media/recording?${q}`, { method: 'POST', headers: { 'content-type': 'audio/mpeg' }, body: mp3 }, 60_000);
    if (res.status !== 201) throw Object.assign(new Error(`/media/recording: HTTP ${res.status}`), { status: res.status });
  }

  /** The voicemail menu opens a mailbox (with the PIN typed, when asked): its messages, or why not. */
  async mailbox(callId: string, step: number, mailbox: string, pin: string | null): Promise<MailboxOpened | null> {
    return this.json<MailboxOpened>('/media/mailbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, step, mailbox, pin }),
    });
  }

  /** A message of the mailbox this call opened (WAV), or null. */
  async mailboxMessage(callId: string, step: number, id: number): Promise<Buffer | null> {
    const res = await this.get(`/media/mailbox/message?call_id=${encodeURIComponent(callId)}&step=${step}&id=${id}`, {}, 5000);
    return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
  }

  /** Marks a message of the opened mailbox heard, or deletes it. */
  async mailboxAction(callId: string, step: number, id: number, action: 'heard' | 'delete'): Promise<void> {
    await this.json('/media/mailbox/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, step, id, action }),
    });
  }

  /**
   * Post-call CSAT (issue 34): the key this call's caller pressed, for the call record and its agent.
   * Throws when the API did not take it (the call logs it: the caller has been thanked either way).
   */
  async csat(callId: string, step: number, score: number): Promise<void> {
    const body: CsatReport = { call_id: callId, step, score };
    const res = await this.get('/media/csat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, 3000);
    if (!res.ok) throw new Error(`/media/csat: HTTP ${res.status}`);
  }

  /**
   * The next calls the worker is to place (voice-OTP, ADR 0052; the dialer's, issue 34): the API
   * claims up to `max` that are due and answers each one's token and what to do, or nothing (204)
   * when none came due within `waitMs` (it holds the ask that long and answers the moment one is started).
   */
  async originate(worker: string, waitMs = 0, signal?: AbortSignal, max = ORIGINATE_BATCH): Promise<PlacedJob[] | null> {
    const res = await this.get('/media/originate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ worker, wait_ms: waitMs, max }), signal }, waitMs + 5000);
    if (res.status === 204 || res.status === 404) return null;
    if (!res.ok) throw new Error(`/media/originate: HTTP ${res.status}`);
    return ((await res.json()) as { jobs: PlacedJob[] }).jobs;
  }

  /** What became of a call the worker placed: answered, then how it ended. */
  async originated(job: Pick<OriginateJob, 'id' | 'tenant_id' | 'attempt'>, r: OriginateReport): Promise<void> {
    // 10 s, not the 3 s of a call's next step: nobody waits on this answer, and a report given up
    // too early is sent again (the API takes each step once: ADR 0052).
    await this.report({ id: job.id, tenant_id: job.tenant_id, attempt: job.attempt, ...r }, 10_000);
  }

  /**
   * What became of a dialer call (issue 34), to the same listener with kind 'dialer'; the answer to
   * `answered` says where to bridge the contact. `timeoutMs`: the contact waits on `answered`.
   */
  async dialerReport(job: Pick<PlacedJob, 'id' | 'tenant_id' | 'attempt'>, r: DialerCallReport, timeoutMs = 10_000): Promise<DialerReportAnswer> {
    const body: DialerReport = { kind: 'dialer', id: job.id, tenant_id: job.tenant_id, attempt: job.attempt, ...r };
    const res = await this.report(body, timeoutMs);
    return (await res.json()) as DialerReportAnswer;
  }

  /**
   * What became of a CRM's click-to-call (issue 39, ADR 0066), kind 'click'; the answer to `agent_answered`
   * is the customer's leg. `timeoutMs`: the agent waits on `agent_answered`.
   */
  async clickReport(job: Pick<PlacedJob, 'id' | 'tenant_id' | 'attempt'>, r: Omit<CrmCallReport, 'kind' | 'id' | 'tenant_id' | 'attempt'>, timeoutMs = 10_000): Promise<CrmCallReportAnswer> {
    const body: CrmCallReport = { kind: 'click', id: job.id, tenant_id: job.tenant_id, attempt: job.attempt, ...r };
    const res = await this.report(body, timeoutMs);
    return (await res.json()) as CrmCallReportAnswer;
  }

  private async report(body: object, timeoutMs: number): Promise<Response> {
    const res = await this.get('/media/originated', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, timeoutMs);
    if (!res.ok) throw new Error(`/media/originated: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res;
  }

  async audio(tenantId: number, id: number): Promise<{ bytes: Buffer; mime: string } | null> {
    const res = await this.get(`/media/audio?tenant_id=${tenantId}&id=${id}`, {}, 5000);
    if (!res.ok) return null;
    return { bytes: Buffer.from(await res.arrayBuffer()), mime: res.headers.get('content-type') ?? '' };
  }
}
