import { RtpSession } from '@tongdai/media/rtp/session';
import { Dialog, newTag } from '@tongdai/media/sip/dialog';
import type { Remote } from '@tongdai/media/sip/endpoint';
import { header, type SipRequest } from '@tongdai/media/sip/message';
import { parseSdp } from '@tongdai/media/sip/sdp';
import { CarrierCall, type CallContext, type CallRecord } from './calls';
import { carrierSdp, chooseG711 } from './sdp';

/**
 * How the carrier answers a call it receives. `answered` with `talkMs` null: the announcement,
 * then BYE (every number outside the population); with `talkMs`: the announcement, silence, and
 * BYE `talkMs` after the answer — a person, who also presses keys while on the line (below). `busy`: 486 after `ringMs`. `no_answer`: rings until CANCEL.
 */
export type Plan = { fate: 'answered'; ringMs: number; talkMs: number | null } | { fate: 'busy'; ringMs: number } | { fate: 'no_answer' };

/**
 * A caller that never gives up is refused after this (480), so a ringing call cannot live forever;
 * RFC 3261's proxies give up after 3 minutes too (timer C).
 */
const NO_ANSWER_LIMIT_MS = 180_000;

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * A person on the line presses a key now and then, as someone answering an automated voice survey
 * does (issue 34: "or presses DTMF answers for a voice survey"): a key 1–5 by SIP INFO
 * (application/dtmf-relay), the first KEYS_FIRST_MS after the answer (past a survey's greeting),
 * then one every KEYS_EVERY_MS. A call bridged to an agent takes no keys (the worker ignores them).
 * Not drawn from the population's seeded draws: a seed's fates stay the same.
 */
export const KEYS_FIRST_MS: [number, number] = [9000, 14_000];
export const KEYS_EVERY_MS: [number, number] = [7000, 12_000];
const within = ([min, max]: [number, number]) => min + Math.random() * (max - min);

/**
 * A call the carrier receives (a tenant's outbound call through its switchboard), already
 * authenticated: 180, then as its plan says (by default 200 with SDP after `ringMs`, the
 * announcement on the ACK, BYE).
 */
export class InboundCall extends CarrierCall {
  private readonly tag = newTag();
  /** The ring timer, then (a person) the talk timer. */
  private timer: NodeJS.Timeout | null = null;
  private keyTimer: NodeJS.Timeout | null = null;
  private announcing = false;

  constructor(
    ctx: CallContext,
    private readonly invite: SipRequest,
    private readonly from: Remote,
    private readonly plan: Plan,
    /** A call to the population: GET /calls shows its fate. */
    person = false,
  ) {
    super(ctx, {
      call_id: header(invite, 'call-id')!,
      direction: 'in',
      request_uri: invite.uri,
      from: header(invite, 'from') ?? '',
      to: header(invite, 'to') ?? '',
      p_asserted_identity: header(invite, 'p-asserted-identity') ?? null,
      peer: `${from.address}:${from.port}`,
    });
    if (person) this.record.population = { fate: plan.fate, ring_s: plan.fate === 'no_answer' ? null : seconds(plan.ringMs), talk_s: plan.fate === 'answered' && plan.talkMs !== null ? seconds(plan.talkMs) : null, talked_s: null, keys: '' };
  }

  async start(): Promise<void> {
    const { ep } = this.ctx;
    const offer = parseSdp(this.invite.body);
    const pt = offer ? chooseG711(offer.payloadTypes) : null;
    if (!offer || pt === null) return this.refuse(488, 'Not Acceptable Here');
    const plan = this.plan;
    if (plan.fate === 'answered') {
      this.rtp = await RtpSession.open(ep.bindAddress);
      this.rtp.peer = offer.peer;
    }
    this.ctx.log(`call ${this.record.id}: INVITE ${this.invite.uri} from ${this.record.caller_id} (P-Asserted-Identity: ${this.record.p_asserted_identity ?? '—'}) via ${this.record.peer}: ringing${this.record.population ? `; a person who ${describe(plan)}` : ''}`);
    ep.respond(this.invite, this.from, 180, 'Ringing', [['x-to-tag', this.tag], ['contact', this.contact()]]);
    if (plan.fate === 'no_answer') {
      this.timer = setTimeout(() => this.refuse(480, 'Temporarily Unavailable'), NO_ANSWER_LIMIT_MS);
      return void this.timer.unref();
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.ended) return;
      if (plan.fate === 'busy') return this.refuse(486, 'Busy Here');
      if (!this.rtp) return;
      const sdp = carrierSdp({ address: ep.address, port: this.rtp.port, payloadTypes: [pt], dtmf: offer.dtmf, sessionId: this.record.id });
      ep.respond(this.invite, this.from, 200, 'OK', [['x-to-tag', this.tag], ['contact', this.contact()], ['content-type', 'application/sdp']], sdp);
      this.dialog = Dialog.asUas(ep, this.invite, this.tag);
      this.answered(pt);
      if (plan.talkMs !== null) {
        this.timer = setTimeout(() => this.hangup(), plan.talkMs);
        if (this.record.population) this.pressKeys(within(KEYS_FIRST_MS));
      }
    }, plan.ringMs);
  }

  /** The next key, `afterMs` from now, then the one after it; the call's end stops them. */
  private pressKeys(afterMs: number): void {
    this.keyTimer = setTimeout(() => {
      if (this.ended || !this.dialog) return;
      const key = String(1 + Math.floor(Math.random() * 5));
      this.dialog.send('INFO', [['content-type', 'application/dtmf-relay']], `Signal=${key}\r\nDuration=160\r\n`);
      this.record.population!.keys += key;
      this.pressKeys(within(KEYS_EVERY_MS));
    }, afterMs);
    this.keyTimer.unref();
  }

  private refuse(status: number, reason: string): void {
    this.ctx.ep.respond(this.invite, this.from, status, reason, [['x-to-tag', this.tag]]);
    this.record.reason = reason;
    this.finish('failed', null, status);
  }

  /** A call still ringing when the carrier stops is refused (503) rather than left to ring. */
  override hangup(): void {
    if (!this.dialog && !this.ended) return this.refuse(503, 'Service Unavailable');
    super.hangup();
  }

  protected override onAck(): void {
    if (this.record.state !== 'answered' || this.ended || this.announcing) return;
    this.announcing = true;
    this.announce('answer', this.record.called, this.plan.fate === 'answered' && this.plan.talkMs !== null);
  }

  protected override onCancel(): void {
    if (this.dialog || this.ended) return;
    this.ctx.ep.respond(this.invite, this.from, 487, 'Request Terminated', [['x-to-tag', this.tag]]);
    this.finish('cancelled', 'remote', 487);
  }

  protected override finish(state: CallRecord['state'], by: CallRecord['ended_by'], status?: number): void {
    if (this.ended) return;
    if (this.timer) clearTimeout(this.timer);
    if (this.keyTimer) clearTimeout(this.keyTimer);
    const p = this.record.population;
    if (p && this.record.answered_at) p.talked_s = seconds(Date.now() - Date.parse(this.record.answered_at));
    super.finish(state, by, status);
  }

  override snapshot(): CallRecord {
    const s = super.snapshot();
    return s.population ? { ...s, population: { ...s.population } } : s;
  }
}

function describe(plan: Plan): string {
  if (plan.fate === 'no_answer') return 'never answers';
  if (plan.fate === 'busy') return `is busy (486 in ${seconds(plan.ringMs)} s)`;
  return `answers in ${seconds(plan.ringMs)} s and talks ${plan.talkMs === null ? 'through the announcement' : `${seconds(plan.talkMs)} s`}`;
}
