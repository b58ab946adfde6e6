import { processStats } from './process-stats';

describe('processStats (GET /internal/sip/process)', () => {
  it('gives the memory at once, the loop delay from the second ask, and a new window after a reset', async () => {
    const first = processStats();
    expect(first.pid).toBe(process.pid);
    expect(first.rss_bytes).toBeGreaterThan(0);
    expect(first.heap_used_bytes).toBeGreaterThan(0);
    expect(first.loop).toBeNull();
    // Twelve timer hops, not one 120 ms wait: the histogram's first tick only starts its count, and a loop
    // held for the whole wait (ci3 of 2026-11-29, load 12) ran that tick with the wait's end, 0 samples.
    for (let i = 0; i < 12; i++) await new Promise((r) => setTimeout(r, 10));
    const second = processStats({ reset: true });
    expect(second.loop!.samples).toBeGreaterThan(0);
    expect(second.loop!.p99_ms).toBeGreaterThanOrEqual(second.loop!.p50_ms);
    expect(second.loop!.p50_ms).toBeGreaterThanOrEqual(0);
    // A 60 ms block of the loop is seen as a late timer (not the first tick after a reset: that one only starts the count).
    await new Promise((r) => setTimeout(r, 40));
    const until = Date.now() + 60;
    while (Date.now() < until) { /* busy */ }
    await new Promise((r) => setTimeout(r, 50));
    const third = processStats();
    expect(Date.parse(third.loop!.since)).toBeGreaterThanOrEqual(Date.parse(second.loop!.since));
    expect(third.loop!.max_ms).toBeGreaterThanOrEqual(40);
  });
});
