import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROCESS_STATS_MARK, processStats, type ProcessStats } from './process-stats';

describe('the worker on SIGUSR2 (the soak bench)', () => {
  it('gives its memory, then the loop delay since the last ask', async () => {
    const first = processStats();
    expect(first).toMatchObject({ pid: process.pid, loop: null });
    expect(first.rss_bytes).toBeGreaterThan(0);
    // 100 ms in ten turns of the loop: the histogram records from its sampling timer's second run on, and one
    // 100 ms timer on a starved process (load 13, ci2 of the thirty-seventh session) came before that second run.
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10));
    const second = processStats();
    expect(second.loop!.samples).toBeGreaterThan(0);
    expect(second.loop!.p99_ms).toBeGreaterThanOrEqual(second.loop!.p50_ms);
  });

  it('prints one JSON line on each SIGUSR2 and keeps running', async () => {
    // A process of its own: Jest's sandbox does not hand the test's signal handlers to the real process.
    const script = `require(${JSON.stringify(join(__dirname, 'process-stats.ts'))}).printStatsOnSignal(); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const waitFor = (n: number) => until(() => out.split('\n').filter((l) => l.startsWith(PROCESS_STATS_MARK)).length >= n);
    try {
      await until(() => out.includes('ready\n'));
      child.kill('SIGUSR2');
      await waitFor(1);
      await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGUSR2');
      await waitFor(2);
      const stats = out.split('\n').filter((l) => l.startsWith(`${PROCESS_STATS_MARK} `)).map((l) => JSON.parse(l.slice(PROCESS_STATS_MARK.length + 1)) as ProcessStats);
      expect(stats).toHaveLength(2);
      expect(stats[0]).toMatchObject({ pid: child.pid, loop: null });
      expect(stats[1].loop!.samples).toBeGreaterThan(0);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
