/**
 * Failed-login counter per account (tenant + username), in memory. Per-IP limits come from
 * @fastify/rate-limit; this one stops a slow distributed guess at a single account.
 * With several API instances this would move to Redis, like the event bus.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures = 5,
    readonly windowMs = 15 * 60 * 1000,
  ) {}

  static key(maDn: string, username: string): string {
    return `${maDn.trim().toLowerCase()}\u0000${username.trim().toLowerCase()}`;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  isBlocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.maxFailures;
  }

  fail(key: string, now = Date.now()): void {
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
