import type { SpyMode } from '@tongdai/contracts';
import { decodeAlaw, decodeUlaw } from '../rtp/g711';
import { FRAME_SAMPLES, PT_PCMA, type FrameSource, type RtpSession } from '../rtp/session';

/** Samples a speaker may run ahead of a listener's clock before the oldest are dropped (200 ms). */
const MAX_BACKLOG = 1600;
/** Samples held before a speaker is heard (again, after running dry): 40 ms against jitter. */
const PRIME = 320;

/** One speaker's audio waiting for one listener's next frames. */
export class SampleQueue {
  private readonly chunks: Int16Array[] = [];
  private head = 0;
  private primed = false;
  size = 0;

  push(pcm: Int16Array): void {
    this.chunks.push(pcm);
    this.size += pcm.length;
    if (this.size > MAX_BACKLOG) this.take(this.size - MAX_BACKLOG, null);
  }

  /** Adds the next `out.length` samples into `out`; adds nothing while too little is buffered (a gap is silence). */
  mixInto(out: Int32Array): void {
    if (!this.primed && this.size < PRIME) return;
    if (this.size < out.length) {
      this.primed = false;
      return;
    }
    this.primed = true;
    this.take(out.length, out);
  }

  clear(): void {
    this.take(this.size, null);
    this.primed = false;
  }

  private take(n: number, out: Int32Array | null): void {
    let i = 0;
    while (i < n) {
      const c = this.chunks[0];
      const k = Math.min(c.length - this.head, n - i);
      if (out) for (let j = 0; j < k; j++) out[i + j] += c[this.head + j];
      i += k;
      this.head += k;
      if (this.head === c.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.size -= n;
  }
}

/**
 * A bridged call with supervisors in it (issue 16, ADR 0042). The two parties' packets stop
 * going across as they are: every leg's audio is decoded, and each leg is sent, on the worker's
 * clock, the sum of those it hears —
 *   the parties: each other, a barging supervisor, and (the agent only) a whispering one;
 *   a supervisor: both parties and any barging supervisor.
 * G.711 in, G.711 out (20 ms frames); 20–60 ms more latency than the plain bridge.
 */
export class Mixer {
  /** Each supervisor's mode, and the agent's leg of the extension they dialled (who hears a whisper). */
  private readonly spies = new Map<RtpSession, { mode: SpyMode; agent: RtpSession }>();
  /** listener → speaker → what the listener has still to hear of the speaker. */
  private readonly queues = new Map<RtpSession, Map<RtpSession, SampleQueue>>();
  private readonly detach = new Map<RtpSession, () => void>();

  constructor(
    private readonly a: RtpSession,
    private readonly b: RtpSession,
  ) {
    a.unbridge();
    this.attach(a);
    this.attach(b);
  }

  get size(): number {
    return this.spies.size;
  }

  /** Whether `listener` hears `speaker` now. */
  hears(listener: RtpSession, speaker: RtpSession): boolean {
    if (listener === speaker) return false;
    const heard = this.spies.get(speaker);
    if (this.spies.has(listener)) return heard === undefined || heard.mode === 'barge';
    if (heard === undefined) return true;
    return heard.mode === 'barge' || (heard.mode === 'whisper' && listener === heard.agent);
  }

  /** `agent`: the leg of the extension the supervisor dialled ('a' reached the worker, 'b' it placed). */
  add(spy: RtpSession, mode: SpyMode, agent: 'a' | 'b'): void {
    this.spies.set(spy, { mode, agent: agent === 'a' ? this.a : this.b });
    this.attach(spy);
  }

  /** A supervisor pressed 4 / 5 / 6: what nobody hears any more is dropped at once. */
  setMode(spy: RtpSession, mode: SpyMode): void {
    const s = this.spies.get(spy);
    if (!s) return;
    s.mode = mode;
    for (const [listener, bySpeaker] of this.queues) for (const [speaker, q] of bySpeaker) if (!this.hears(listener, speaker)) q.clear();
  }

  remove(spy: RtpSession): void {
    if (!this.spies.delete(spy)) return;
    this.detach.get(spy)?.();
    this.detach.delete(spy);
    this.queues.delete(spy);
    for (const bySpeaker of this.queues.values()) bySpeaker.delete(spy);
  }

  /** Back to the plain bridge (the last supervisor left). */
  close(): void {
    for (const spy of [...this.spies.keys()]) this.remove(spy);
    for (const off of this.detach.values()) off();
    this.detach.clear();
    this.queues.clear();
    this.a.bridge(this.b);
  }

  /** The next 20 ms `listener` hears. */
  frameFor(listener: RtpSession): Int16Array {
    const sum = new Int32Array(FRAME_SAMPLES);
    for (const q of this.queues.get(listener)?.values() ?? []) q.mixInto(sum);
    const frame = new Int16Array(FRAME_SAMPLES);
    for (let i = 0; i < FRAME_SAMPLES; i++) frame[i] = Math.max(-32768, Math.min(32767, sum[i]));
    return frame;
  }

  private members(): RtpSession[] {
    return [this.a, this.b, ...this.spies.keys()];
  }

  private attach(rtp: RtpSession): void {
    const onAudio = (pt: number, payload: Buffer) => {
      const pcm = pt === PT_PCMA ? decodeAlaw(payload) : decodeUlaw(payload);
      for (const listener of this.members()) {
        if (!this.hears(listener, rtp)) continue;
        const bySpeaker = this.queues.get(listener) ?? new Map<RtpSession, SampleQueue>();
        this.queues.set(listener, bySpeaker);
        const q = bySpeaker.get(rtp) ?? new SampleQueue();
        bySpeaker.set(rtp, q);
        q.push(pcm);
      }
    };
    rtp.on('audio', onAudio);
    const source: FrameSource = { next: () => this.frameFor(rtp) };
    rtp.play(source);
    this.detach.set(rtp, () => {
      rtp.off('audio', onAudio);
      rtp.play(null);
    });
  }
}
