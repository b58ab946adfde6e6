import { connect, type Socket } from 'node:net';

/**
 * Kamailio's call events arrive over its evapi module: one TCP connection from the API to
 * Kamailio (EVAPI_ADDR), netstring-framed JSON ("42:{...},"). evapi_relay() never blocks a SIP
 * worker, unlike an HTTP request per event (the bench lost calls at 1000 cps that way, ADR 0011).
 * The client reconnects by itself: Kamailio may start after the API, or restart.
 */
export class EvapiClient {
  private socket: Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  connected = false;

  constructor(
    private readonly address: { host: string; port: number },
    private readonly onEvent: (event: unknown) => void,
    private readonly retryMs = 500,
  ) {}

  start(): this {
    this.open();
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  private open(): void {
    const socket = connect(this.address);
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on('connect', () => (this.connected = true));
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.connected = false;
      if (this.stopped) return;
      this.timer = setTimeout(() => this.open(), this.retryMs);
      this.timer.unref();
    });
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
      try {
        this.onEvent(JSON.parse(payload));
      } catch {
        /* a malformed event is skipped, the stream goes on */
      }
    }
  }
}

/** "host:port" → address, or null. */
export function parseAddress(spec: string | undefined): { host: string; port: number } | null {
  const m = /^\s*([^:\s]+):(\d{1,5})\s*$/.exec(spec ?? '');
  return m ? { host: m[1], port: Number(m[2]) } : null;
}
