import { silence } from '@tongdai/media/audio/tones';
import { AudioSource, RtpSession } from '@tongdai/media/rtp/session';
import { Dialog, newTag } from '@tongdai/media/sip/dialog';
import type { Remote, SipEndpoint } from '@tongdai/media/sip/endpoint';
import { cseq, randomToken, uriOf, userOf, type SipRequest, type SipResponse } from '@tongdai/media/sip/message';
import { parseSdp } from '@tongdai/media/sip/sdp';
import { CODEC_NAME, carrierSdp, chooseG711, type G711 } from './sdp';
import type { Announcement, Voice } from './voice';

/** One call as GET /calls shows it. */
export interface CallRecord {
  id: number;
  call_id: string;
  /** `in`: a call the carrier received (a tenant calling out); `out`: one it placed (POST /call). */
  direction: 'in' | 'out';
  state: 'ringing' | 'answered' | 'ended' | 'cancelled' | 'failed';
  /** The final SIP status (200, or the failure's code) and its reason phrase. */
  status: number | null;
  reason: string | null;
  request_uri: string;
  from: string;
  to: string;
  p_asserted_identity: string | null;
  /** The user part of the caller's identity (P-Asserted-Identity, else From): the caller ID shown. */
  caller_id: string;
  /** The number called (request URI's user). */
  called: string;
  /** The SIP address the request came from or went to. */
  peer: string;
  codec: string | null;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  ended_by: 'carrier' | 'remote' | null;
  rtp_sent: number;
  rtp_received: number;
  /** A call to the population (population.ts): its drawn fate; null for every other number. */
  population: PopulationRecord | null;
}

export interface PopulationRecord {
  fate: 'answered' | 'busy' | 'no_answer';
  /** Ringing before the answer or the 486 (seconds), null when it never answers. */
  ring_s: number | null;
  /** The talk time drawn for an answered call (seconds). */
  talk_s: number | null;
  /** How long the call was actually talked once it ended (the caller may hang up first). */
  talked_s: number | null;
  /** The keys the person pressed while on the line, in order (a voice survey's answers). */
  keys: string;
}

export interface CallContext {
  ep: SipEndpoint;
  voice: Voice;
  /** Routes in-dialog requests of `callId` to the call (null: forget it). */
  track(callId: string, call: CarrierCall | null): void;
  log(msg: string): void;
  /** Pause after the announcement before the carrier hangs up. */
  hangupAfterMs: number;
}

const now = () => new Date().toISOString();
let nextId = 1;

/**
 * What both kinds of call share: the record, the RTP leg, playing the announcement then BYE. The
 * inbound call is in inbound-call.ts.
 */
export abstract class CarrierCall {
  protected dialog: Dialog | null = null;
  protected rtp: RtpSession | null = null;
  protected ended = false;
  readonly record: CallRecord;

  constructor(
    protected readonly ctx: CallContext,
    init: Pick<CallRecord, 'call_id' | 'direction' | 'request_uri' | 'from' | 'to' | 'p_asserted_identity' | 'peer'>,
  ) {
    const identity = init.p_asserted_identity ?? init.from;
    this.record = {
      id: nextId++,
      ...init,
      state: 'ringing',
      status: null,
      reason: null,
      caller_id: userOf(uriOf(identity)),
      called: userOf(init.request_uri),
      codec: null,
      started_at: now(),
      answered_at: null,
      ended_at: null,
      ended_by: null,
      rtp_sent: 0,
      rtp_received: 0,
      population: null,
    };
    ctx.track(init.call_id, this);
  }

  protected answered(pt: G711): void {
    this.record.state = 'answered';
    this.record.status = 200;
    this.record.codec = CODEC_NAME[pt];
    this.record.answered_at = now();
    this.rtp!.payloadType = pt;
  }

  /**
   * Plays `kind` for `number`, then hangs up (unless the other side did first); `thenSilence`: then
   * keeps the line alive with silence instead, until someone hangs up (a person still talking).
   */
  protected announce(kind: Announcement, number: string, thenSilence = false): void {
    const rtp = this.rtp;
    if (!rtp || this.ended) return;
    this.ctx.log(`call ${this.record.id} (${this.record.call_id}): playing the ${kind} announcement (${this.record.codec}) to ${rtp.peer?.address}:${rtp.peer?.port}`);
    const clips = this.ctx.voice.clips(kind, number);
    if (thenSilence) return rtp.play(new AudioSource([silence(1000)], true, clips));
    rtp.once('ended', () => setTimeout(() => this.hangup(), this.ctx.hangupAfterMs).unref());
    rtp.play(new AudioSource(clips));
  }

  /** BYE from the carrier's side. */
  hangup(): void {
    if (this.ended || !this.dialog) return;
    this.dialog.send('BYE');
    this.finish('ended', 'carrier');
  }

  protected finish(state: CallRecord['state'], by: CallRecord['ended_by'], status?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.record.state = state;
    this.record.ended_by = by;
    if (status !== undefined) this.record.status = status;
    this.record.ended_at = now();
    if (this.rtp) {
      this.record.rtp_sent = this.rtp.sent;
      this.record.rtp_received = this.rtp.received;
      this.rtp.close();
    }
    // In-dialog retransmissions are still answered for a while (the endpoint repeats its last answer).
    setTimeout(() => this.ctx.track(this.record.call_id, null), 32_000).unref();
    this.ctx.log(`call ${this.record.id}: ${state}${status ? ` (${status})` : ''}${by ? `, hung up by the ${by === 'carrier' ? 'carrier' : 'other side'}` : ''}; RTP sent ${this.record.rtp_sent}, received ${this.record.rtp_received}`);
  }

  /** Live packet counts for GET /calls. */
  snapshot(): CallRecord {
    if (this.rtp && !this.ended) {
      this.record.rtp_sent = this.rtp.sent;
      this.record.rtp_received = this.rtp.received;
    }
    return { ...this.record };
  }

  /** Requests inside the call (or its transaction): the parts both directions share. */
  onRequest(req: SipRequest, from: Remote): void {
    const { ep } = this.ctx;
    switch (req.method) {
      case 'ACK':
        return this.onAck();
      case 'BYE':
        ep.respond(req, from, 200, 'OK');
        return this.finish('ended', 'remote');
      case 'CANCEL':
        ep.respond(req, from, 200, 'OK');
        return this.onCancel();
      case 'INVITE': {
        // Re-INVITE (hold, session refresh): same stream, the peer may have moved.
        const offer = parseSdp(req.body);
        if (!this.rtp || !this.dialog) return void ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
        if (offer) this.rtp.peer = offer.peer;
        const tag = /;tag=([^;>\s]+)/.exec(this.dialog.local)?.[1];
        ep.respond(req, from, 200, 'OK', [...(tag ? [['x-to-tag', tag] as [string, string]] : []), ['contact', this.contact()], ['content-type', 'application/sdp']], carrierSdp({ address: ep.address, port: this.rtp.port, payloadTypes: [this.rtp.payloadType], sessionId: this.record.id }));
        return;
      }
      case 'INFO':
      case 'UPDATE':
      case 'OPTIONS':
        return void ep.respond(req, from, 200, 'OK');
      default:
        ep.respond(req, from, 405, 'Method Not Allowed');
    }
  }

  protected contact(): string {
    return `<sip:demo-carrier@${this.ctx.ep.address}:${this.ctx.ep.port}>`;
  }

  protected onAck(): void {}
  protected onCancel(): void {}
}

/**
 * A call the carrier places to a hotline (POST /call), from its own SIP socket so the PBX sees
 * the switchboard's address: INVITE with PCMA/PCMU, ACK of the 2xx, then the inbound
 * announcement and BYE. Unanswered after `ringTimeoutMs`: CANCEL.
 */
export class OutboundCall extends CarrierCall {
  private readonly request: SipRequest;
  private ringTimer: NodeJS.Timeout | null = null;

  constructor(
    ctx: CallContext,
    private readonly target: Remote,
    o: { to: string; from: string },
  ) {
    const { ep } = ctx;
    const callId = `${randomToken(16)}@demo-carrier`;
    const uri = `sip:${o.to}@${target.address}:${target.port}`;
    const from = `<sip:${o.from}@${ep.address}:${ep.port}>;tag=${newTag()}`;
    super(ctx, { call_id: callId, direction: 'out', request_uri: uri, from, to: `<${uri}>`, p_asserted_identity: null, peer: `${target.address}:${target.port}` });
    this.request = {
      kind: 'request',
      method: 'INVITE',
      uri,
      headers: [
        ['via', ep.via()],
        ['from', from],
        ['to', `<${uri}>`],
        ['call-id', callId],
        ['cseq', '1 INVITE'],
        ['max-forwards', '70'],
        ['contact', `<sip:${o.from}@${ep.address}:${ep.port}>`],
        ['user-agent', 'tongdai-demo-carrier'],
        ['content-type', 'application/sdp'],
      ],
      body: '',
    };
  }

  async start(ringTimeoutMs: number): Promise<void> {
    const { ep } = this.ctx;
    this.rtp = await RtpSession.open(ep.bindAddress);
    this.request.body = carrierSdp({ address: ep.address, port: this.rtp.port, payloadTypes: [8, 0], sessionId: this.record.id });
    this.ctx.log(`call ${this.record.id}: INVITE ${this.request.uri} from ${this.record.caller_id} to ${this.record.peer}`);
    ep.send(this.request, this.target, { onResponse: (r) => this.onResponse(r), onTimeout: () => this.finish('failed', null, 408) });
    this.ringTimer = setTimeout(() => {
      if (this.record.state !== 'ringing' || this.ended) return;
      this.ctx.log(`call ${this.record.id}: no answer in ${ringTimeoutMs} ms, CANCEL`);
      ep.cancel(this.request, this.target);
    }, ringTimeoutMs);
    this.ringTimer.unref();
  }

  private onResponse(res: SipResponse): void {
    if (res.status < 200) return;
    if (this.ringTimer) clearTimeout(this.ringTimer);
    if (res.status >= 300) {
      this.record.reason = res.reason;
      // 401/407: the PBX does not take this address for one of its switchboards (it wants a subscriber's password).
      if (res.status === 401 || res.status === 407) this.ctx.log(`call ${this.record.id}: the PBX challenged the carrier (${res.status}): is ${this.ctx.ep.address} a switchboard host of the tenant that owns ${this.record.called}?`);
      return this.finish(res.status === 487 ? 'cancelled' : 'failed', null, res.status);
    }
    const first = !this.dialog;
    this.dialog ??= Dialog.asUac(this.ctx.ep, this.request, res);
    this.dialog.ack(cseq(this.request).seq);
    if (!first) return;
    const answer = parseSdp(res.body);
    const pt = answer ? chooseG711(answer.payloadTypes) : null;
    if (!answer || pt === null || !this.rtp || this.ended) {
      this.dialog.send('BYE');
      return this.finish('failed', 'carrier', 488);
    }
    this.rtp.peer = answer.peer;
    this.answered(pt);
    this.announce('inbound', this.record.called);
  }
}
