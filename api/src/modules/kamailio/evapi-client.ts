import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, type Socket } from 'node:net';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const netstring = (payload: string) => `${Buffer.byteLength(payload)}:${payload},`;
/** Events that arrive between the handshake and Kamailio's welcome are held, up to this many. */
const MAX_EARLY_EVENTS = 1000;

/**
 * Kamailio's call events arrive over its evapi module: one TCP connection from the API to
 * Kamailio (EVAPI_ADDR), netstring-framed JSON ("42:{...},"). evapi_relay() never blocks a SIP
 * worker, unlike an HTTP request per event (the bench lost calls at 1000 cps that way, ADR 0011).
 * The client reconnects by itself: Kamailio may start after the API, or restart.
 *
 * Both ends prove the shared secret first (ADR 0019, sip/kamailio.cfg "handshake"): the API sends
 * a fresh nonce with sha256("api|ts|nonce|secret"); Kamailio sends events only to connections that
 * did, and answers sha256("kamailio|nonce|secret"). Until that welcome arrives no event is applied,
 * so a process squatting the port (Kamailio down) can neither feed fake calls nor learn the secret.
 */
export class EvapiClient {
  private socket: Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | null = null;
  private handshake: NodeJS.Timeout | null = null;
  private stopped = false;
  private nonce = '';
  private early: unknown[] = [];
  /** The connection is up and Kamailio proved the secret: events are applied. */
  connected = false;

  constructor(
    private readonly address: { host: string; port: number },
    private readonly onEvent: (event: unknown) => void,
    private readonly secret: string,
    private readonly retryMs = 500,
    private readonly handshakeMs = 5000,
  ) {}

  start(): this {
    this.open();
    return this;
  }

  /**
   * Tells Kamailio to forget the cached HA1s of `key` ("101@demo.tongdai.local", or "@demo.tongdai.local"
   * for the whole domain; sip/kamailio.cfg route[FORGET]). Signed like the handshake, so only a
   * holder of the secret makes Kamailio drop anything; false when not connected (the cache's
   * minute is then the bound).
   */
  forget(key: string): boolean {
    if (!this.connected || !this.socket) return false;
    const ts = String(Math.floor(Date.now() / 1000));
    this.socket.write(netstring(JSON.stringify({ forget: key, ts, proof: sha256(`forget|${key}|${ts}|${this.secret}`) })));
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.handshake) clearTimeout(this.handshake);
    this.socket?.destroy();
  }

  private open(): void {
    const socket = connect(this.address);
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.early = [];
    socket.setNoDelay(true);
    socket.on('connect', () => {
      this.nonce = randomBytes(16).toString('hex');
      const ts = String(Math.floor(Date.now() / 1000));
      socket.write(netstring(JSON.stringify({ hello: this.nonce, ts, proof: sha256(`api|${ts}|${this.nonce}|${this.secret}`) })));
      // No welcome in time (not Kamailio, or it refused us): drop and try again.
      this.handshake = setTimeout(() => socket.destroy(), this.handshakeMs);
      this.handshake.unref();
    });
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.connected = false;
      if (this.handshake) clearTimeout(this.handshake);
      if (this.stopped) return;
      this.timer = setTimeout(() => this.open(), this.retryMs);
      this.timer.unref();
    });
  }

  /** Kamailio's welcome for our nonce, with its proof of the secret. */
  private isWelcome(event: unknown): boolean {
    const e = event as { event?: unknown; nonce?: unknown; proof?: unknown } | null;
    if (e?.event !== 'welcome' || e.nonce !== this.nonce || typeof e.proof !== 'string') return false;
    const expected = Buffer.from(sha256(`kamailio|${this.nonce}|${this.secret}`));
    const got = Buffer.from(e.proof.toLowerCase());
    return got.length === expected.length && timingSafeEqual(got, expected);
  }

  private receive(event: unknown): void {
    if (this.connected) {
      // Another API instance's welcome: not an event.
      if ((event as { event?: unknown } | null)?.event !== 'welcome') this.onEvent(event);
      return;
    }
    if (this.isWelcome(event)) {
      if (this.handshake) clearTimeout(this.handshake);
      this.connected = true;
      const early = this.early;
      this.early = [];
      for (const e of early) this.onEvent(e);
    } else if ((event as { event?: unknown } | null)?.event !== 'welcome' && this.early.length < MAX_EARLY_EVENTS) {
      this.early.push(event);
    }
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const colon = this.buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString());
      if (!Number.isInteger(length)) {
        // Not a netstring: drop the connection and start clean.
        this.socket?.destroy();
        return;
      }
      const end = colon + 1 + length;
      if (this.buffer.length < end + 1) return;
      const payload = this.buffer.subarray(colon + 1, end).toString();
      this.buffer = this.buffer.subarray(end + 1);
      let event: unknown;
      try {
        event = JSON.parse(payload);
      } catch {
        continue; // a malformed event is skipped, the stream goes on
      }
      try {
        this.receive(event);
      } catch {
        /* a handler's failure does not end the stream */
      }
    }
  }
}

/** "host:port" → address, or null. */
export function parseAddress(spec: string | undefined): { host: string; port: number } | null {
  const m = /^\s*([^:\s]+):(\d{1,5})\s*$/.exec(spec ?? '');
  return m ? { host: m[1], port: Number(m[2]) } : null;
}
