import { createSocket, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { encodeAlaw, encodeUlaw } from './g711';
import { DtmfReceiver } from './dtmf';

/** 20 ms of 8 kHz audio: one RTP packet. */
export const FRAME_SAMPLES = 160;
export const FRAME_MS = 20;
export const PT_PCMU = 0;
export const PT_PCMA = 8;

/** What a leg plays: 20 ms frames until null (the end of a clip; a mix never ends). */
export interface FrameSource {
  next(): Int16Array | null;
}

export interface RtpPeer {
  address: string;
  port: number;
}

/**
 * One call leg's RTP: a UDP socket on the worker, the peer's address from its SDP, our packets
 * paced by one shared clock. Received packets are DTMF events (reported as digits) or audio,
 * which a bridge forwards as they are to the other leg.
 */
export class RtpSession extends EventEmitter {
  readonly socket: Socket;
  peer: RtpPeer | null = null;
  /** Payload type the peer uses for telephone-event (from its SDP), null if none. */
  dtmfPayloadType: number | null = null;
  private readonly ssrc = (Math.random() * 0xffffffff) >>> 0;
  private seq = Math.floor(Math.random() * 0xffff);
  private timestamp = (Math.random() * 0xffffffff) >>> 0;
  private readonly dtmf = new DtmfReceiver();
  private source: FrameSource | null = null;
  private bridgedTo: RtpSession | null = null;
  private closed = false;
  /** What our audio is encoded as: PCMU (0, the worker's own calls) or PCMA (8) when the peer chose it. */
  payloadType: typeof PT_PCMU | typeof PT_PCMA = PT_PCMU;
  sent = 0;
  received = 0;
  /** When the peer last sent a packet (the open time until it does): a dead leg's silence. */
  lastPacketAt = Date.now();
  /** The peer put the call on hold (sendonly / inactive): it may send nothing for as long as it likes. */
  held = false;

  private constructor(socket: Socket) {
    super();
    this.socket = socket;
    socket.on('message', (msg, rinfo) => this.onPacket(msg, rinfo));
    socket.on('error', () => this.close());
  }

  static async open(address: string): Promise<RtpSession> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, address, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const s = new RtpSession(socket);
    CLOCK.add(s);
    return s;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** What plays to the peer from now on (null: silence is not sent at all). */
  play(source: FrameSource | null): void {
    this.source = source;
  }

  /** Stops sending `source` if it is still what plays (a prompt cut short); anything else plays on. */
  stop(source: FrameSource): void {
    if (this.source === source) this.source = null;
  }

  /** Packets from this leg's peer go to `other`'s peer unchanged (both legs are PCMU). */
  bridge(other: RtpSession): void {
    this.bridgedTo = other;
    other.bridgedTo = this;
    this.source = null;
    other.source = null;
  }

  /** Stops forwarding packets to the other leg and back (a mix takes over, ADR 0042). */
  unbridge(): void {
    if (this.bridgedTo?.bridgedTo === this) this.bridgedTo.bridgedTo = null;
    this.bridgedTo = null;
  }

  /** One clock tick: the next 20 ms of the current source, if any. */
  tick(): void {
    if (this.closed || !this.peer || !this.source) return;
    const frame = this.source.next();
    if (!frame) {
      const done = this.source;
      this.source = null;
      this.emit('ended', done);
      return;
    }
    this.sendPayload(this.payloadType, this.payloadType === PT_PCMA ? encodeAlaw(frame) : encodeUlaw(frame), false);
    this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
  }

  private sendPayload(pt: number, payload: Buffer, marker: boolean): void {
    const head = Buffer.alloc(12);
    head[0] = 0x80;
    head[1] = (marker ? 0x80 : 0) | pt;
    head.writeUInt16BE(this.seq, 2);
    head.writeUInt32BE(this.timestamp, 4);
    head.writeUInt32BE(this.ssrc, 8);
    this.seq = (this.seq + 1) & 0xffff;
    this.sent++;
    this.socket.send(Buffer.concat([head, payload]), this.peer!.port, this.peer!.address);
  }

  private onPacket(msg: Buffer, rinfo: { address: string; port: number }): void {
    if (this.closed || msg.length < 12 || msg[0] >> 6 !== 2) return;
    // RTCP (payload types 200-204 with the marker bit) is not ours to interpret.
    const pt = msg[1] & 0x7f;
    if (pt >= 72 && pt <= 76) return;
    this.received++;
    this.lastPacketAt = Date.now();
    // Symmetric RTP: a peer behind NAT (or rtpengine) is answered where it sends from.
    if (!this.peer || this.peer.port !== rinfo.port || this.peer.address !== rinfo.address) this.peer = { address: rinfo.address, port: rinfo.port };
    const cc = msg[0] & 0x0f;
    const offset = 12 + cc * 4;
    const other = this.bridgedTo;
    if (this.dtmfPayloadType !== null && pt === this.dtmfPayloadType) {
      const digit = this.dtmf.receive(msg.subarray(offset), msg.readUInt32BE(4));
      if (digit) this.emit('dtmf', digit);
      // A bridge passes the keys on, as its audio, to a far side that takes telephone-event, under the payload type
      // that side chose: a carrier caller's # ends a voicemail message, a key works a menu, through a recorded or rated
      // call (ADR 0041, 0056) as through a direct one.
      if (other && !other.closed && other.peer && other.dtmfPayloadType !== null) {
        msg[1] = (msg[1] & 0x80) | other.dtmfPayloadType;
        other.socket.send(msg, other.peer.port, other.peer.address);
      }
      return;
    }
    if (other && !other.closed && other.peer) other.socket.send(msg, other.peer.port, other.peer.address);
    // The peer's voice for whoever records it (a voicemail message, a bridged call): G.711 payloads only.
    if ((pt === PT_PCMU || pt === PT_PCMA) && this.listenerCount('audio')) this.emit('audio', pt, msg.subarray(offset), msg.readUInt32BE(4), msg.readUInt32BE(8));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    CLOCK.delete(this);
    if (this.bridgedTo?.bridgedTo === this) this.bridgedTo.bridgedTo = null;
    try {
      this.socket.close();
    } catch {
      /* already closed */
    }
  }
}

/** Clips read 20 ms at a time: `intro` once, then `clips` (looped when `loop`). */
export class AudioSource {
  private clip = 0;
  private pos = 0;
  private readonly clips: Int16Array[];
  private readonly introCount: number;

  constructor(clips: Int16Array[], private readonly loop = false, intro: Int16Array[] = []) {
    this.clips = [...intro, ...clips];
    this.introCount = intro.length;
  }

  next(): Int16Array | null {
    for (let guard = 0; guard <= this.clips.length; guard++) {
      if (this.clip >= this.clips.length) {
        if (!this.loop || this.clips.length === this.introCount) return null;
        this.clip = this.introCount;
      }
      const c = this.clips[this.clip];
      if (this.pos < c.length) {
        const frame = new Int16Array(FRAME_SAMPLES);
        frame.set(c.subarray(this.pos, this.pos + FRAME_SAMPLES));
        this.pos += FRAME_SAMPLES;
        return frame;
      }
      this.clip++;
      this.pos = 0;
    }
    return null;
  }
}

/**
 * One timer for every call, paced by the monotonic clock: when the event loop is late, the
 * missed frames are sent at once (up to 100 ms), so the peer's jitter buffer sees no gap.
 */
class Clock {
  private readonly sessions = new Set<RtpSession>();
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  /** Frames not sent because the loop was more than 100 ms late (the bench's "lost frames"). */
  dropped = 0;

  add(s: RtpSession): void {
    this.sessions.add(s);
    if (!this.timer) {
      this.next = performance.now();
      this.timer = setInterval(() => this.run(), 5);
    }
  }

  delete(s: RtpSession): void {
    this.sessions.delete(s);
    if (!this.sessions.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private run(): void {
    const now = performance.now();
    let due = 0;
    while (this.next <= now) {
      due++;
      this.next += FRAME_MS;
    }
    if (due > 5) {
      this.dropped += (due - 5) * this.sessions.size;
      due = 5;
    }
    for (let i = 0; i < due; i++) for (const s of this.sessions) s.tick();
  }

  get size(): number {
    return this.sessions.size;
  }
}

export const CLOCK = new Clock();
