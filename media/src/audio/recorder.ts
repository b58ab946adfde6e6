import { closeSync, openSync, writeSync } from 'node:fs';
import { decodeAlaw, decodeUlaw, linearToUlaw } from '../rtp/g711';
import { PT_PCMA } from '../rtp/session';
import { openMp3Stream, type Mp3Stream } from './mp3-thread';
import { RATE } from './wav';

/** MP3 bit rate of a recording: 8 kHz stereo (MPEG 2.5), about 240 KB a minute. */
export const RECORDING_KBPS = 32;
/** Audio newer than this stays unencoded: a late packet still lands where it belongs. */
const JITTER_SAMPLES = (RATE * 300) / 1000;
/** A stream whose RTP timestamps stray further than this from the clock is put back on the clock. */
const STRAY_SAMPLES = RATE;
/**
 * How often the audio so far goes to the encoder and to the spool file: what a worker killed mid-call
 * loses is at most this and the jitter held back.
 */
const ENCODE_EVERY_MS = 500;

/**
 * One party's audio on the call's clock: sample n is n/8000 s after the recording started. A
 * stream's first packet is placed where the clock is when it arrives; the next ones by their RTP
 * timestamps, so network jitter (packets held back, then delivered at once) moves nothing, and a
 * pause in the stream (silence suppression, hold) is silence of the right length.
 */
class Track {
  private chunks: Int16Array[] = [];
  /** Samples written (audio and filled gaps) since the start. */
  length: number;
  /** Samples already handed to the encoder. */
  private taken: number;
  private ssrc = -1;
  private lastTs = 0;
  private lastPos = 0;

  /** A track that joins the recording `from` samples after its start (what came before is not its). */
  constructor(from = 0) {
    this.length = from;
    this.taken = from;
  }

  /** `pcm` with RTP timestamp `ts` of stream `ssrc`, arrived `at` samples after the start (its end). */
  add(pcm: Int16Array, at: number, ts: number, ssrc: number): void {
    const onClock = Math.max(at - pcm.length, 0);
    let pos = ssrc === this.ssrc ? this.lastPos + ((ts - this.lastTs) | 0) : onClock;
    // A new stream, or one whose clock strays (a sender running fast or slow): back on our clock.
    if (Math.abs(pos - onClock) > STRAY_SAMPLES) pos = onClock;
    this.ssrc = ssrc;
    this.lastTs = ts;
    this.lastPos = pos;
    // A late or repeated packet over audio already written: only what is new.
    if (pos < this.length) {
      const skip = this.length - pos;
      if (skip >= pcm.length) return;
      pcm = pcm.subarray(skip);
      pos = this.length;
    }
    if (pos > this.length) this.push(new Int16Array(pos - this.length));
    this.push(pcm);
  }

  private push(pcm: Int16Array): void {
    this.chunks.push(pcm);
    this.length += pcm.length;
  }

  /** The next `n` samples for the encoder (silence where the party sent nothing yet). */
  take(n: number): Int16Array {
    const out = new Int16Array(n);
    let filled = 0;
    while (filled < n && this.chunks.length) {
      const c = this.chunks[0];
      const k = Math.min(c.length, n - filled);
      out.set(c.subarray(0, k), filled);
      filled += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.taken += n;
    // What was not there is counted as silence already given: the track catches up from here.
    if (this.length < this.taken) this.length = this.taken;
    return out;
  }
}

const clip = (v: number) => (v > 32767 ? 32767 : v < -32768 ? -32768 : v);

/**
 * A bridged call's recording (issue 16, ADR 0041): the caller on the left channel, the other
 * party on the right, on the wall clock from the moment they were bridged, encoded to MP3 as the
 * call goes (half a second at a time, so an hour's call never holds an hour of PCM) and, given a spool
 * file, the same audio appended to it as G.711 μ-law, left and right interleaved (`spoolAudio`), when it
 * goes to the encoder (issue 41: a killed worker keeps what was recorded, however far behind its encoder
 * thread was). Paused: both channels are silence for that time, so the file keeps the call's timeline.
 */
export class CallRecorder {
  private readonly t0: number;
  readonly startedAt = new Date();
  private readonly tracks = [new Track(), new Track()] as const;
  /** Supervisors barging in (ADR 0042), one track per stream: heard by both parties, so in both channels. */
  private readonly joined = new Map<number, Track>();
  /** The MP3 encoder, on the encoder thread: this thread only hands it samples (mp3-thread.ts). */
  private readonly mp3: Mp3Stream;
  private encoded = 0;
  private readonly timer: NodeJS.Timeout;
  private finished: Promise<{ mp3: Buffer; seconds: number }> | null = null;
  /** The spool file's descriptor; null without one, or once the disk refused a write. */
  private spool: number | null = null;
  paused = false;
  private stopped = false;

  /** `spool`: a file the audio is appended to every half second (spoolAudio), for a process that dies mid-call. */
  constructor(
    private readonly clock: () => number = () => performance.now(),
    spool?: string,
  ) {
    this.t0 = clock();
    this.mp3 = openMp3Stream(RATE, RECORDING_KBPS);
    if (spool) {
      try {
        this.spool = openSync(spool, 'a');
      } catch (e) {
        // No spool (a full or missing disk): the recording is kept in memory only; the call goes on.
        console.error(`[media] recording spool ${spool}: ${e instanceof Error ? e.message : e}`);
      }
    }
    this.timer = setInterval(() => this.encode(false), ENCODE_EVERY_MS);
    this.timer.unref();
  }

  private now(): number {
    return Math.floor(((this.clock() - this.t0) * RATE) / 1000);
  }

  /**
   * A G.711 packet (its RTP timestamp and SSRC) of party 0 (the caller), 1 (the other side) or
   * 'joined': a supervisor barging in, whom both parties hear (mixed into both channels).
   */
  packet(party: 0 | 1 | 'joined', pt: number, payload: Buffer, ts: number, ssrc: number): void {
    if (this.stopped) return;
    const pcm = pt === PT_PCMA ? decodeAlaw(payload) : decodeUlaw(payload);
    let track: Track | undefined;
    if (party !== 'joined') track = this.tracks[party];
    else if (!(track = this.joined.get(ssrc))) this.joined.set(ssrc, (track = new Track(this.encoded)));
    track.add(this.paused ? new Int16Array(pcm.length) : pcm, this.now(), ts, ssrc);
  }

  private encode(final: boolean, end = this.now()): void {
    const upto = final ? Math.max(end, this.tracks[0].length, this.tracks[1].length, ...[...this.joined.values()].map((t) => t.length)) : end - JITTER_SAMPLES;
    // Whole MP3 frames' worth (576 samples at 8 kHz) keep the encoder's buffering small.
    const n = final ? upto - this.encoded : Math.floor((upto - this.encoded) / 576) * 576;
    if (n <= 0) return;
    const left = this.tracks[0].take(n);
    const right = this.tracks[1].take(n);
    for (const t of this.joined.values()) {
      const x = t.take(n);
      for (let i = 0; i < n; i++) {
        if (!x[i]) continue;
        left[i] = clip(left[i] + x[i]);
        right[i] = clip(right[i] + x[i]);
      }
    }
    this.encoded += n;
    this.toSpool(left, right);
    this.mp3.encode(left, right);
  }

  /**
   * The audio handed to the encoder, appended to the spool file on this thread (a few microseconds per
   * half second: 8 KB written, no encoding), so the file never lags the call by more than ENCODE_EVERY_MS
   * and the jitter, however busy the encoder thread. A write the disk refuses ends the spooling; the
   * recording goes on in memory.
   */
  private toSpool(left: Int16Array, right: Int16Array): void {
    if (this.spool === null) return;
    const out = spoolAudio(left, right);
    try {
      writeSync(this.spool, out);
    } catch (e) {
      console.error(`[media] recording spool write: ${e instanceof Error ? e.message : e}`);
      this.closeSpool();
    }
  }

  private closeSpool(): void {
    if (this.spool === null) return;
    try {
      closeSync(this.spool);
    } catch { /* already gone */ }
    this.spool = null;
  }

  /** Stops: the MP3 of the whole call and how long it lasts (seconds, from the bridge to now). */
  finish(): Promise<{ mp3: Buffer; seconds: number }> {
    if (this.finished) return this.finished;
    clearInterval(this.timer);
    const end = this.now();
    this.stopped = true;
    this.encode(true, end);
    this.closeSpool();
    const seconds = this.encoded / RATE;
    this.finished = this.mp3.finish().then((mp3) => ({ mp3, seconds }));
    return this.finished;
  }
}

/** Stereo samples as the spool keeps them: G.711 μ-law, one byte left then one byte right per sample. */
export function spoolAudio(left: Int16Array, right: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(left.length * 2);
  for (let i = 0; i < left.length; i++) {
    out[2 * i] = linearToUlaw(left[i]);
    out[2 * i + 1] = linearToUlaw(right[i]);
  }
  return out;
}
