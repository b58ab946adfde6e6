import { RECORDING_HEADER, RECORDING_INFO_TYPE } from '@tongdai/contracts';
import { CallRecorder } from '../audio/recorder';
import type { RecordingMeta, RecordingSpool, SpoolEntry } from '../audio/recording-spool';
import type { RtpSession } from '../rtp/session';
import { header, type SipRequest } from '../sip/message';

/**
 * The mark on the leg of the party who may pause the recording (ADR 0041): on the INVITE the worker
 * sends them, or on its 200 to them.
 */
export const recordingMark = (): [string, string] => [RECORDING_HEADER.toLowerCase(), 'on'];

/**
 * What a SIP INFO says of the recording (ADR 0041): 'pause' or 'resume'; 'other' for an INFO of the
 * recording's type saying neither (answered, obeyed by nobody); null for any other INFO (a key…).
 */
export function recordingInfo(req: SipRequest): 'pause' | 'resume' | 'other' | null {
  if ((header(req, 'content-type') ?? '').toLowerCase() !== RECORDING_INFO_TYPE) return null;
  const body = req.body.trim().toLowerCase();
  return body === 'pause' || body === 'resume' ? body : 'other';
}

/**
 * A bridged call's recording (issue 16, ADR 0041), for every call the worker bridges: a queue's or a
 * recorded call's (media-call.ts) and a campaign dialer's (dialer-call.ts). From `start` (the bridge) to
 * `finish` (the first hang-up): `left`'s audio on the left channel (the caller; a dialer's contact),
 * `right`'s on the right (whoever answered; the agent), spooled as it goes (issue 41), then handed to
 * the spool, which uploads it with the ticket until the API has it.
 */
export class BridgeRecording {
  private finished = false;

  private constructor(
    /** The recorder itself (a supervisor barging in is added to it; `paused` writes silence). */
    readonly recorder: CallRecorder,
    private readonly meta: RecordingMeta,
    private readonly spooled: SpoolEntry | null,
    private readonly spool: RecordingSpool,
    private readonly log: (msg: string) => void,
  ) {}

  /** Starts recording the two parties now; null when it cannot start (logged: a recording never takes the call down). */
  static start(spool: RecordingSpool, o: { callId: string; ticket: string; left: RtpSession; right: RtpSession }, log: (msg: string) => void): BridgeRecording | null {
    try {
      const meta = { callId: o.callId, ticket: o.ticket, startedAt: new Date() };
      const spooled = spool.open(meta);
      const rec = new CallRecorder(undefined, spooled?.audioPath);
      o.left.on('audio', (pt: number, payload: Buffer, ts: number, ssrc: number) => rec.packet(0, pt, payload, ts, ssrc));
      o.right.on('audio', (pt: number, payload: Buffer, ts: number, ssrc: number) => rec.packet(1, pt, payload, ts, ssrc));
      return new BridgeRecording(rec, meta, spooled, spool, log);
    } catch (e) {
      log(`recording ${o.callId} not started: ${e instanceof Error ? e.message : e}`);
      return null;
    }
  }

  /** Paused (true) or resumed: while paused both channels are silence (the file keeps the call's timeline). */
  pause(on: boolean): void {
    this.recorder.paused = on;
  }

  /** Ends the recording (once) and hands it to the spool, which sends it to the API until stored (recording-spool.ts). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.recorder
      .finish()
      .then(({ mp3, seconds }) => this.spool.handOver(this.meta, this.spooled, mp3, seconds))
      .catch((e) => this.log(`recording ${this.meta.callId}: ${e instanceof Error ? e.message : e}`));
  }
}
