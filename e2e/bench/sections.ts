// The bench's sections run one after another, each timed by the machine's load average before and
// after it; a section that measured nothing (no call answered, no stream heard, no row read, or it
// threw) fails the bench with its reason instead of printing an empty figure.
import { cpus, loadavg } from 'node:os';

/**
 * One figure: what is measured, the result, the goal. A fourth element says why the figure
 * measured nothing; the bench then fails. A fifth, 'goal': the figure was measured and missed a goal
 * the bench judges (the reason says which); the bench fails too.
 */
export type Row = [measure: string, result: string, goal: string, nothing?: string, kind?: 'goal'];

/** `[measure, result, goal]`, marked as measuring nothing with `reason` when `empty` holds. */
export const figure = (measure: string, result: string, goal: string, empty: boolean, reason: string): Row =>
  empty ? [measure, result, goal, reason] : [measure, result, goal];

/** `[measure, result, goal]`, marked as missing its judged goal with `reason` when `missed` holds. */
export const judged = (measure: string, result: string, goal: string, missed: boolean, reason: string): Row =>
  missed ? [measure, result, goal, reason, 'goal'] : [measure, result, goal];

const mark = (r: Row) => (r[4] === 'goal' ? 'GOAL MISSED' : 'NOTHING MEASURED');

export interface Section<C> {
  name: string;
  run(ctx: C): Promise<Row[]>;
}

export interface SectionResult {
  name: string;
  rows: Row[];
  load: string;
  seconds: number;
  /** Why the section measured nothing (rows without a figure, or what it threw). */
  failures: string[];
}

const load1 = () => loadavg()[0].toFixed(2);

/** Runs one section; a throw becomes a failure of that section, the next ones still run. */
export async function runSection<C>(s: Section<C>, ctx: C): Promise<SectionResult> {
  const before = load1();
  const t0 = Date.now();
  let rows: Row[];
  const failures: string[] = [];
  try {
    rows = await s.run(ctx);
    if (!rows.length) failures.push('no figure');
  } catch (e) {
    // The first two lines say what failed (a SIP timeout's second line is the request it sent).
    const message = (e instanceof Error ? e.message : String(e)).split('\n').slice(0, 2).join(' ').slice(0, 300);
    console.error(e);
    rows = [[s.name, `error: ${message}`, '—']];
    failures.push(message);
  }
  for (const r of rows) if (r[3]) failures.push(`${r[0]}: ${r[3]}`);
  const result = { name: s.name, rows, load: `${before} → ${load1()}`, seconds: (Date.now() - t0) / 1000, failures };
  console.log(`bench: ${s.name} ${failures.length ? (rows.some((r) => r[4] === 'goal') ? 'FAILED' : 'MEASURED NOTHING') : 'done'} in ${result.seconds.toFixed(0)} s (load ${result.load})`);
  return result;
}

/** The table: every figure beside its goal and its section's load average (1 min) before → after. */
export function printTable(results: SectionResult[], log = console.log) {
  const rows = results.flatMap((s) => s.rows.map((r) => [r[0], r[3] ? `${r[1]} — ${mark(r)}: ${r[3]}` : r[1], r[2], `${s.name}: ${s.load}`]));
  const head = ['Measure', 'Result', 'Goal', `Load 1 min before → after (${cpus().length} cores)`];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(w[i])).join(' | ')} |`;
  log(['', line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
}

/** Prints the failures; true when every section measured something and met the goals it judges. */
export function verdict(results: SectionResult[], log = console.error): boolean {
  const failed = results.filter((s) => s.failures.length);
  if (!failed.length) return true;
  log(`\n✗ The bench failed: ${failed.length} of ${results.length} sections measured nothing or missed a judged goal.`);
  for (const s of failed) for (const f of s.failures) log(`  ${s.name}: ${f}`);
  return false;
}
