// Routing plan latency at a fixed rate (like autocannon's overallRate): call i is due at
// t0 + i / rate and its latency runs from when it was due to when its plan is serialised, so a
// slow plan delays the next ones and shows in their latency too. planCall is pure: in-process.
// Alone: `npx tsx e2e/bench/plan.ts` (PLAN_RATE, PLAN_SECONDS); `npm run bench` includes it.
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { findLoop, nextStateChange, planCall } from '@tongdai/api/routing';
import { benchCalls, benchConfig, benchState } from './plan-config.ts';
import { figure, type Row } from './sections.ts';

const RATE = Number(process.env.PLAN_RATE ?? 500);
const SECONDS = Number(process.env.PLAN_SECONDS ?? 5);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (x: number) => (x < 0.1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);

export async function planBench(): Promise<Row[]> {
  const state = benchState();
  // A running API has planned before: warm the JIT on another configuration object, then time the
  // first plan on a fresh one (it builds the per-configuration indexes, as after a save).
  const warm = benchConfig();
  if (findLoop(warm)) throw new Error('bench configuration has a loop');
  for (const call of benchCalls(2000)) planCall(warm, call, state);
  const config = benchConfig();
  const calls = benchCalls(RATE * SECONDS);
  const c0 = performance.now();
  planCall(config, calls[0], state);
  const cold = performance.now() - c0;

  const latencies: number[] = [];
  const service: number[] = [];
  const kinds = new Map<string, number>();
  const t0 = performance.now() + 50;
  for (let i = 0; i < calls.length; i++) {
    const due = t0 + (i * 1000) / RATE;
    // Sleep, never spin (a busy loop is what a loaded scheduler preempts first); timers have 1 ms
    // steps and may fire early, so round up: their lag counts, as in autocannon.
    const wait = due - performance.now();
    if (wait > 0) await sleep(Math.ceil(wait));
    const start = performance.now();
    const plan = planCall(config, calls[i], state);
    JSON.stringify(plan); // what the API sends to Kamailio
    const end = performance.now();
    latencies.push(end - due);
    service.push(end - start);
    const last = plan.steps[plan.steps.length - 1];
    kinds.set(last.kind, (kinds.get(last.kind) ?? 0) + 1);
  }
  latencies.sort((a, b) => a - b);
  service.sort((a, b) => a - b);
  const achieved = calls.length / ((performance.now() - t0) / 1000);

  const saveTimes: number[] = [];
  for (const group of config.timeGroups) {
    const s = performance.now();
    nextStateChange(group, new Date(), config.timezone);
    findLoop({ ...config });
    saveTimes.push(performance.now() - s);
  }
  saveTimes.sort((a, b) => a - b);

  const mix = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    figure(`Routing plan latency at ${RATE} plans/s (p50 / p99)`, `${ms(pct(latencies, 50))} / ${ms(pct(latencies, 99))} (max ${ms(latencies[latencies.length - 1])}, ${latencies.length} plans, ${achieved.toFixed(0)}/s)`, 'p99 ≤ 5 ms', !latencies.length, 'no plan computed'),
    ['Routing plan compute time alone (p50 / p99; last steps)', `${ms(pct(service, 50))} / ${ms(pct(service, 99))} (${mix})`, '—'],
    ['First plan after a configuration change (builds its indexes)', ms(cold), '—'],
    ['Save-time checks: nextStateChange + findLoop (worst of 10)', ms(saveTimes[saveTimes.length - 1]), '< 50 ms'],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await planBench();
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), 8));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(w[i])).join(' | ')} |`;
  console.log(['', line(['Measure', 'Result', 'Goal']), line(w.map((n) => '-'.repeat(n))), ...rows.map((r) => line(r.slice(0, 3) as string[]))].join('\n'));
}
