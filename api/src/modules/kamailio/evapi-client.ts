import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { AppliedEvents } from './applied-events';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const netstring = (payload: string) => `${Buffer.byteLength(payload)}:${payload},`;
/** Events that arrive between the handshake and Kamailio's welcome are held, up to this many. */
const MAX_EARLY_EVENTS = 1000;

type Marker = { event: 'replayed'; upto: string; more: number };
const isMarker = (e: unknown): e is Marker => (e as { event?: unknown } | null)?.event === 'replayed';
/** The sequence of an outbox event ("<Kamailio's start>.<sequence>"), or null for one without an id. */
export function eventSeq(event: unknown): number | null {
  return eventOrder(event)?.[1] ?? null;
}

/**
 * Where an outbox event falls in the order things happened: [Kamailio's start, sequence]. A
 * Kamailio that restarted replays what an earlier run kept on disk first (ADR 0046), and an earlier
 * run started earlier, so its events come first whatever their sequence.
 */
export function eventOrder(event: unknown): [number, number] | null {
  const id = (event as { id?: unknown } | null)?.id;
  const m = typeof id === 'string' ? /^(\d+)\.(\d+)$/.exec(id) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

const before = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

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
  /**
   * From the welcome until Kamailio's last replay round (ADR 0046): every event is held, and each
   * round is applied in the order the events happened, then acknowledged, before the next is asked for.
   */
  private replay: { held: unknown[]; timer: NodeJS.Timeout } | null = null;
  /** The connection is up and Kamailio proved the secret: events are applied. */
  connected = false;
  /** The outbox events applied so far, for a plan to wait on (applied-events.ts). */
  readonly applied = new AppliedEvents();
  /** Kamailio's replay after a welcome was applied once (this process has what it kept), or it is not there. */
  private settled = false;
  private settledWaiters: Array<() => void> = [];

  constructor(
    private readonly address: { host: string; port: number },
    /** Applies an event; for one with an id (Kamailio's outbox) the promise it returns says when to acknowledge it. */
    private readonly onEvent: (event: unknown) => Promise<void> | void,
    private readonly secret: string,
    private readonly retryMs = 500,
    private readonly handshakeMs = 5000,
    /** How long to wait for a replay round's marker before applying what is held as it came. */
    private readonly replayMs = 5000,
  ) {}

  start(): this {
    this.open();
    return this;
  }

  /**
   * Resolves true once the events Kamailio kept for an API (its replay after the first welcome) are
   * applied and durable, so the calls in progress are all known; false at once when Kamailio cannot be
   * reached (nothing to wait for: its replay comes when it is up), or after `timeoutMs`.
   */
  caughtUp(timeoutMs: number): Promise<boolean> {
    if (this.settled) return Promise.resolve(this.connected);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.connected);
      };
      const timer = setTimeout(() => {
        this.settledWaiters = this.settledWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.settledWaiters.push(done);
    });
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    for (const w of this.settledWaiters.splice(0)) w();
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

  /**
   * Asks Kamailio to end an answered call's dialog (BYE to both sides; sip/kamailio.cfg, message
   * "end"): only a connection that proved the secret is heard. False when not connected.
   */
  end(callId: string): boolean {
    if (!this.connected || !this.socket) return false;
    this.socket.write(netstring(JSON.stringify({ end: callId })));
    return true;
  }

  /**
   * Asks Kamailio for its location table (sip/kamailio.cfg, message "sync"): every registration is
   * reported again, as after the handshake. For a registration store that lost them (Redis restarted,
   * issue 41). False when not connected (the next handshake brings the table anyway).
   */
  syncRegistrations(): boolean {
    if (!this.connected || !this.socket) return false;
    this.socket.write(netstring(JSON.stringify({ sync: 'registrations' })));
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.handshake) clearTimeout(this.handshake);
    this.socket?.destroy();
    this.endReplay();
    this.settle();
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
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // No Kamailio listening: nothing kept for this process can come now.
      if (err.code === 'ECONNREFUSED') this.settle();
    });
    socket.on('close', () => {
      this.connected = false;
      this.endReplay();
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

  /**
   * Applies an event and, once it is durable, tells Kamailio to drop it from its outbox (ADR 0046).
   * A failure leaves it there: Kamailio sends it again when this client connects next. Resolves
   * when the event is durable (at once for one Kamailio does not keep).
   */
  private apply(event: unknown): Promise<void> {
    const id = (event as { id?: unknown } | null)?.id;
    const applied = this.onEvent(event);
    // The live state has it now (onEvent changes it before its first await): a plan may go on.
    const order = eventOrder(event);
    if (order) this.applied.mark(order[0], order[1]);
    if (typeof id !== 'string' || !applied) return Promise.resolve();
    const socket = this.socket;
    return applied.then(
      () => {
        if (socket && this.socket === socket && !socket.destroyed) socket.write(netstring(JSON.stringify({ ack: id })));
      },
      () => undefined,
    );
  }

  private receive(event: unknown): void {
    if (this.connected) {
      // Another API instance's welcome, or the end of a replay round meant for another: not an event.
      if ((event as { event?: unknown } | null)?.event === 'welcome') return;
      if (this.replay) {
        if (isMarker(event)) void this.round(event);
        else this.replay.held.push(event);
      } else if (!isMarker(event)) void this.apply(event);
      return;
    }
    if (this.isWelcome(event)) {
      if (this.handshake) clearTimeout(this.handshake);
      this.connected = true;
      this.replay = { held: this.early, timer: this.replayTimer() };
      this.early = [];
    } else if ((event as { event?: unknown } | null)?.event !== 'welcome' && this.early.length < MAX_EARLY_EVENTS) {
      this.early.push(event);
    }
  }

  /** A Kamailio that sends no marker (an older script): what is held is applied as it came. */
  private replayTimer(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const held = this.replay?.held ?? [];
      this.endReplay();
      void Promise.all(held.map((e) => this.apply(e))).then(() => this.settle());
    }, this.replayMs);
    timer.unref();
    return timer;
  }

  private endReplay(): void {
    if (this.replay) clearTimeout(this.replay.timer);
    this.replay = null;
  }

  /**
   * A replay round ended at sequence `upto`: what is held up to it is applied in sequence order;
   * with more to come, once durable (and so acknowledged) the next round is asked for; otherwise the
   * rest, newer events that came meanwhile, follow as they came and events are applied live again.
   */
  private async round(marker: Marker): Promise<void> {
    const replay = this.replay;
    if (!replay) return;
    // "upto": the id last looked at ("<start>.<seq>"); a bare sequence from an older script is this run's.
    const uptoId = eventOrder({ id: String(marker.upto) });
    const isReady = (o: [number, number]) => (uptoId ? before(o, uptoId) <= 0 : o[1] <= Number(marker.upto));
    const ready: unknown[] = [];
    const rest: unknown[] = [];
    for (const e of replay.held) {
      const order = eventOrder(e);
      (order !== null && isReady(order) ? ready : rest).push(e);
    }
    ready.sort((a, b) => before(eventOrder(a)!, eventOrder(b)!));
    if (marker.more !== 1) {
      this.endReplay();
      await Promise.all([...ready, ...rest].map((e) => this.apply(e)));
      this.settle();
      return;
    }
    replay.held = rest;
    clearTimeout(replay.timer);
    replay.timer = this.replayTimer();
    const socket = this.socket;
    await Promise.all(ready.map((e) => this.apply(e)));
    if (this.replay === replay && socket && this.socket === socket && !socket.destroyed) socket.write(netstring(JSON.stringify({ replay: '1' })));
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
