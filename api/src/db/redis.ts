import type { RedisClientType, RedisDefaultModules } from 'redis';

/**
 * A Redis connection of the API's. RESP2, the wire format every Redis the API supports speaks
 * (node-redis 6 defaults to RESP3, which needs Redis 6 or newer and changes some replies' shapes).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type RedisConnection = RedisClientType<RedisDefaultModules, {}, {}, 2, {}>;

/** How long one Redis command may take before the API goes on without it (issue 41). */
export const REDIS_TIMEOUT_MS = 500;

/**
 * `command`, or a timeout after `ms`. node-redis's own command timeout ends only the wait to be
 * written: a command written to a Redis that hangs would wait for as long as the connection stays
 * open. Its late answer is dropped here.
 */
export function bounded<T>(command: Promise<T>, ms = REDIS_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // The time is up only after the I/O already waiting has been read (setImmediate runs after the event loop's
  // poll phase): when this process's own event loop was held up (a password hashed, a loaded CI machine at load
  // 14), Redis's answer and this timer are due together, and the timer, run first, took an answer that had come
  // for a Redis that did not (ci2 of the thirty-third session: the shared login limits fell back to each
  // instance's own). A Redis that is really away has sent nothing: the time is up one turn later.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new Error(`Redis did not answer within ${ms} ms`))), ms);
  });
  command.catch(() => undefined);
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether Redis answers (REDIS_URL), as the API's connections see it (issue 41): /health says
 * "degraded" while one of them does not, the log says when it goes and when it is back, and what
 * Redis lost or missed meanwhile is rebuilt by whoever asked `onBack`. Redis holds shared state,
 * never the only copy a request waits on: while it is away each instance goes on with its own.
 */
export class RedisStatus {
  private readonly away = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly log: (line: string) => void = (line) => console.warn(line)) {}

  get up(): boolean {
    return this.away.size === 0;
  }

  /** `fn` runs each time Redis answers every connection again after an outage. */
  onBack(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /**
   * A connection that never makes a request wait on a Redis that is not there: a command meets a
   * closed connection at once (no offline queue); node-redis reconnects by itself (backoff up to 2 s).
   * A Redis that hangs without closing (a frozen host) is found by a PING a second that gets no
   * answer within 1 s. `name` is the connection's in the log.
   */
  async connect(url: string, name: string, onError: (e: unknown) => void = () => undefined): Promise<RedisConnection> {
    const { createClient } = await import('redis');
    // The library's own command timeout only clears a command a frozen Redis never answers out of its queue; who
    // waits on Redis is answered by `bounded` (REDIS_TIMEOUT_MS, after the I/O already there is read): the library's
    // timer, which knows nothing of a held-up event loop, would fail an answer that had come.
    const client = createClient({ url, RESP: 2, disableOfflineQueue: true, commandOptions: { timeout: 4 * REDIS_TIMEOUT_MS } });
    // Reported once per outage, not at every reconnection attempt.
    client.on('error', (e: unknown) => {
      if (!this.away.has(name)) onError(e);
      this.lost(name);
    });
    client.on('reconnecting', () => this.lost(name));
    client.on('ready', () => this.back(name));
    await client.connect();
    const beat = setInterval(() => void bounded(client.ping(), 2 * REDIS_TIMEOUT_MS).then(() => this.back(name), () => this.lost(name)), 1000);
    beat.unref();
    client.on('end', () => clearInterval(beat));
    return client;
  }

  private lost(name: string): void {
    if (this.away.has(name)) return;
    const wasUp = this.up;
    this.away.add(name);
    if (wasUp) this.log(`Redis unreachable (${name}): degraded, each API instance goes on with its own state until it is back`);
  }

  private back(name: string): void {
    if (!this.away.delete(name) || !this.up) return;
    this.log('Redis is back: shared state being rebuilt');
    for (const fn of this.listeners) fn();
  }
}

/**
 * Ends a connection without waiting on a Redis that is away: QUIT when it answers, else at once
 * (a QUIT queued for a reconnection that never comes held the API's shutdown forever).
 */
export async function closeRedis(client: RedisConnection): Promise<void> {
  if (client.isReady && (await bounded(client.quit()).then(() => true, () => false))) return;
  if (client.isOpen) client.destroy();
}

/**
 * What Redis answers within REDIS_TIMEOUT_MS, or else `local` (this process's own copy); at once
 * while Redis is known to be `away` (a request would otherwise pay the timeout for each command).
 */
export async function orLocal<T>(fromRedis: () => Promise<T>, local: () => T | Promise<T>, away: () => boolean = () => false, onError: (e: unknown) => void = () => undefined): Promise<T> {
  if (away()) return local();
  try {
    return await bounded(fromRedis());
  } catch (err) {
    onError(err);
    return local();
  }
}
