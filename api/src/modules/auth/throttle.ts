import type { FastifyReply } from 'fastify';
import { AppError } from '../../http/errors';
import { closeRedis, orLocal, RedisStatus } from '../../db/redis';

/**
 * Login limits (ADR 0003, amended for issue 12): a per-IP cap on login-like requests, and per
 * account + IP failure counts with exponential backoff. Keyed by account AND address, so an
 * attacker's failures slow only the attacker: the owner logging in from elsewhere is never
 * locked out. Counters live in a CounterStore: memory for one process, Redis (REDIS_URL) so
 * every API instance agrees.
 */
export interface CounterStore {
  /** One more hit in a fixed window that starts at the key's first hit: the count and ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** One more failure at `now`; the record is forgotten `forgetMs` after its latest failure. */
  fail(key: string, now: number, forgetMs: number): Promise<void>;
  failures(key: string): Promise<{ count: number; last: number } | null>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface ThrottleOptions {
  /** Login, sign-up and change-password requests per IP per window (default 20 per minute). */
  ipLimit: { max: number; timeWindow: number };
  /** Failures per account + IP that cost nothing (default 5). */
  maxFailures: number;
  /** The failure record is forgotten this long after its latest failure (default 1 hour). */
  windowMs: number;
  /** The wait after maxFailures failures, doubled by each further one (default 30 s) … */
  baseDelayMs: number;
  /** … up to this (default 15 minutes). */
  maxDelayMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  ipLimit: { max: 20, timeWindow: 60_000 },
  maxFailures: 5,
  windowMs: 60 * 60_000,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
};

/** How long `failures` failures make the next attempt wait, from the latest failure. */
export function backoffMs(failures: number, o: Pick<ThrottleOptions, 'maxFailures' | 'baseDelayMs' | 'maxDelayMs'>): number {
  if (failures < o.maxFailures) return 0;
  return Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.min(failures - o.maxFailures, 30));
}

/** 429 TOO_MANY_ATTEMPTS that knows when to come back (the routes send it as Retry-After). */
export class ThrottledError extends AppError {
  constructor(readonly retryAfterS: number) {
    super('TOO_MANY_ATTEMPTS');
  }
}

/** Runs a throttled step; a 429 then says when to come back (Retry-After, seconds) beside its body. */
export async function withRetryAfter<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ThrottledError) void reply.header('retry-after', String(e.retryAfterS));
    throw e;
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class LoginThrottle {
  readonly options: ThrottleOptions;

  constructor(
    private readonly store: CounterStore = memoryCounters(),
    options: Partial<ThrottleOptions> = {},
  ) {
    this.options = { ...DEFAULT_THROTTLE, ...options };
  }

  /** One account (case-insensitive) seen from one address. */
  static key(maDn: string, username: string, ip: string): string {
    return `acct:${maDn.trim().toLowerCase()}\u0000${username.trim().toLowerCase()}\u0000${ip}`;
  }

  /** Counts a request from `ip`; throws once the address is past its limit for the window. */
  async hitIp(ip: string): Promise<void> {
    const { count, resetMs } = await this.store.hit(`ip:${ip}`, this.options.ipLimit.timeWindow);
    if (count > this.options.ipLimit.max) throw new ThrottledError(seconds(resetMs));
  }

  /** Throws while the account + address is waiting out its backoff. */
  async check(key: string, now = Date.now()): Promise<void> {
    const record = await this.store.failures(key);
    if (!record) return;
    const wait = record.last + backoffMs(record.count, this.options) - now;
    if (wait > 0) throw new ThrottledError(seconds(wait));
  }

  fail(key: string, now = Date.now()): Promise<void> {
    return this.store.fail(key, now, this.options.windowMs);
  }

  succeed(key: string): Promise<void> {
    return this.store.clear(key);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** Counters of this process only (one API instance, tests). */
export function memoryCounters(clock: () => number = Date.now): CounterStore {
  // Each entry carries the moment it is forgotten (`until`); a stale one reads as absent.
  const hits = new Map<string, { count: number; until: number }>();
  const fails = new Map<string, { count: number; last: number; until: number }>();
  const live = <T extends { until: number }>(map: Map<string, T>, key: string): T | undefined => {
    const v = map.get(key);
    if (v && v.until <= clock()) map.delete(key);
    else return v;
  };
  return {
    async hit(key, windowMs) {
      const entry = live(hits, key) ?? { count: 0, until: clock() + windowMs };
      entry.count++;
      hits.set(key, entry);
      return { count: entry.count, resetMs: entry.until - clock() };
    },
    async fail(key, now, forgetMs) {
      const count = (live(fails, key)?.count ?? 0) + 1;
      fails.set(key, { count, last: now, until: now + forgetMs });
    },
    async failures(key) {
      const v = live(fails, key);
      return v ? { count: v.count, last: v.last } : null;
    },
    async clear(key) {
      fails.delete(key);
    },
    async close() {
      hits.clear();
      fails.clear();
    },
  };
}

// Each script is one atomic step, so instances racing on one key never lose a count.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;
const FAIL = `redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Counters every API instance shares (REDIS_URL); keys under `prefix`, each with its expiry. While
 * Redis does not answer (issue 41) this process counts on its own (memory): a login never waits on
 * Redis, and the limits still hold per instance.
 */
export async function redisCounters(url: string, onError: (e: unknown) => void = () => undefined, prefix = 'tongdai:login:', status = new RedisStatus()): Promise<CounterStore> {
  const client = await status.connect(url, 'login limits', onError);
  const local = memoryCounters();
  const away = () => !status.up;
  const k = (key: string) => prefix + key;
  return {
    hit: (key, windowMs) =>
      orLocal(async () => {
        const [count, ttl] = (await client.eval(HIT, { keys: [k(key)], arguments: [String(windowMs)] })) as [number, number];
        return { count, resetMs: ttl > 0 ? ttl : windowMs };
      }, () => local.hit(key, windowMs), away),
    fail: (key, now, forgetMs) =>
      orLocal(async () => void (await client.eval(FAIL, { keys: [k(key)], arguments: [String(now), String(forgetMs)] })), () => local.fail(key, now, forgetMs), away),
    failures: (key) =>
      orLocal(async () => {
        const [n, last] = await client.hmGet(k(key), ['n', 'last']);
        return n ? { count: Number(n), last: Number(last) } : null;
      }, () => local.failures(key), away),
    clear: (key) => orLocal(async () => void (await client.del(k(key))), () => local.clear(key), away),
    async close() {
      await local.close();
      await closeRedis(client);
    },
  };
}
