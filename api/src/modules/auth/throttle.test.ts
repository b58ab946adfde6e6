import { backoffMs, LoginThrottle, memoryCounters, ThrottledError } from './throttle';

describe('LoginThrottle', () => {
  const key = LoginThrottle.key('Demo', ' Admin ', '203.0.113.5');
  const options = { maxFailures: 3, windowMs: 10_000, baseDelayMs: 1000, maxDelayMs: 4000 };
  const retryAfter = (p: Promise<void>) => p.then(() => 0, (e: ThrottledError) => e.retryAfterS);

  it('keys accounts case-insensitively, per address', () => {
    expect(key).toBe(LoginThrottle.key('demo', 'admin', '203.0.113.5'));
    expect(key).not.toBe(LoginThrottle.key('demo', 'admin', '198.51.100.7'));
  });

  it('backs off exponentially after the free failures, up to the cap', () => {
    expect([0, 2, 3, 4, 5, 6, 40].map((n) => backoffMs(n, options))).toEqual([0, 0, 1000, 2000, 4000, 4000, 4000]);
  });

  it('waits out the backoff from the latest failure, then lets the account try again', async () => {
    const t = new LoginThrottle(memoryCounters(() => 0), options);
    for (let i = 0; i < 3; i++) await t.fail(key, 100);
    expect(await retryAfter(t.check(key, 200))).toBe(1); // 900 ms left → 1 s
    expect(await retryAfter(t.check(key, 1100))).toBe(0);
    await t.fail(key, 1100);
    expect(await retryAfter(t.check(key, 1200))).toBe(2);
    expect(await retryAfter(t.check(LoginThrottle.key('demo', 'admin', '198.51.100.7'), 1200))).toBe(0);
  });

  it('forgets failures a window after the latest one', async () => {
    let now = 0;
    const t = new LoginThrottle(memoryCounters(() => now), options);
    for (let i = 0; i < 3; i++) await t.fail(key, 0);
    now = 10_001;
    expect(await retryAfter(t.check(key, now))).toBe(0);
  });

  it('a success clears the account', async () => {
    const t = new LoginThrottle(memoryCounters(), { ...options, maxFailures: 2 });
    await t.fail(key, 1);
    await t.succeed(key);
    await t.fail(key, 2);
    expect(await retryAfter(t.check(key, 3))).toBe(0);
  });

  it('limits requests per address in a fixed window', async () => {
    let now = 0;
    const t = new LoginThrottle(memoryCounters(() => now), { ipLimit: { max: 2, timeWindow: 60_000 } });
    expect(await retryAfter(t.hitIp('a'))).toBe(0);
    expect(await retryAfter(t.hitIp('a'))).toBe(0);
    now = 30_000;
    expect(await retryAfter(t.hitIp('a'))).toBe(30);
    expect(await retryAfter(t.hitIp('b'))).toBe(0);
    now = 60_000;
    expect(await retryAfter(t.hitIp('a'))).toBe(0);
  });
});
