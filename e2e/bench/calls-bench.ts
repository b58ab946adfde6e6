// `npm run bench`, call routing part: Kamailio calls per second with a plan from the API for
// every call (signalling only). A sipp carrier calls a DID routed to a "hunt" ring group of
// AGENTS extensions, all registered with one sipp phone answering at once (an extension in a call
// is busy for the engine, so concurrent calls need several); each call is INVITE → 180 → 200 →
// ACK → BYE and leaves a call record. Fixed offered rates; reports what got through, the setup
// time, the plan request's round trip as Kamailio measured it, and the CPU both processes used.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKamailio } from '../../scripts/lib/kamailio.mjs';
import { freeTcpPort, freeUdpPort } from '../../scripts/lib/ports.mjs';
import { sipPorts, type StackSip } from '../../scripts/lib/stack.mjs';
import { registerContact } from '@tongdai/testkit/register-contact';
import { answerScenario, carrierScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { openWalls, type Walls } from './walls.ts';
import { figure, type Row } from './sections.ts';
import { BENCH_KAMAILIO, benchSwitchboard, carriersLoaded } from './trust.ts';

const RATES = (process.env.BENCH_CPS ?? '200,500,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_CALL_SECONDS ?? 10);
const DID = '02873000003';
const AGENTS = Number(process.env.BENCH_AGENTS ?? 40);
const TICK = 100; // clock ticks per second (USER_HZ) on Linux
const WALLS = Number(process.env.BENCH_WALLS ?? 50);

/** utime + stime (seconds) of the processes `match` picks by (pid, parent pid, process group). */
export function cpuSeconds(match: (pid: number, ppid: number, pgrp: number) => boolean): number {
  let ticks = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      if (match(Number(p), Number(fields[1]), Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* exited */
    }
  }
  return ticks / TICK;
}

/** Why a call section skipped: it measured nothing. */
export const NOT_INSTALLED = 'sipp or Kamailio is not installed (scripts/lib/system.mjs installs them)';

/**
 * Why sipp exited non-zero, from its error output: the first answer it did not expect (with
 * Kamailio's X-Tongdai-Cause), else its last line that is not its own overload warning (sipp starved of
 * CPU says so, which is no reason for a call to fail).
 */
export function sippWhy(output: string): string {
  const m = /while expecting '([^']*)'[^']*received '([^\r\n']*)/.exec(output);
  if (m) {
    const cause = /X-Tongdai-Cause: ([^\r\n']+)/.exec(output.slice(m.index));
    return `expected ${m[1]}, received ${m[2]}${cause ? ` (${cause[1]})` : ''}`;
  }
  return output.split('\n').map((l) => l.trim()).filter((l) => l && !/^There were more errors/.test(l) && !/Overload warning/.test(l)).at(-1)?.slice(0, 200) ?? '';
}

export const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] : NaN);

/** Plan round trips (ms) logged by Kamailio (TONGDAI_PLAN_TIMING) after byte `from` of its log. */
export function planTimes(log: string, from: number): number[] {
  const text = readFileSync(log).subarray(from).toString();
  return [...text.matchAll(/plan-timing (\d+)\.(\d+) (\d+)\.(\d+) 200/g)].map((m) => (Number(m[3]) - Number(m[1])) * 1000 + (Number(m[4]) - Number(m[2])) / 1000);
}

/** sipp's statistics lines (-trace_stat, one a second): counters by column name. */
export function sippStats(file: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(';'));
  return lines.map((l) => Object.fromEntries(head.map((h, i) => [h, l[i]])));
}

/** "HH:MM:SS:ffffff" (sipp; the last part is a fraction of a second) → seconds. */
export function sippSeconds(t = ''): number {
  const [h = '0', m = '0', sec = '0', frac = '0'] = t.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(sec) + Number(frac) / 10 ** frac.length;
}

/** What the bench's stack hands the call benches. */
export interface BenchOptions {
  apiUrl: string;
  apiPort: number;
  apiPid: number;
  token: string;
  sip: StackSip | null;
}

/** A bench's call plane: extensions in hunt groups, one per DID, one sipp phone answering for all, its own Kamailio. */
export interface BenchPbx {
  kamailio: Awaited<ReturnType<typeof startKamailio>>;
  udpPort: number;
  dir: string;
  /** Source ports of the tenant's bench switchboards (carriers call in only from a switchboard, ADR 0036); [0] is the one carrier of the call bench. */
  carrierPorts: number[];
  carrierPort: number;
  /** Kamailio's and the API's CPU seconds so far (Kamailio: its process group; the API: tsx and its node). */
  cpu(): [number, number];
  close(): Promise<void>;
}

/** An extension made for a bench, with its SIP password. */
export interface BenchAgent {
  extension: string;
  password: string;
}

/**
 * The tenant's side of a bench's inbound calls, as an administrator sets it up: `agents` extensions
 * from `firstExtension`, shared among one "hunt" ring group per DID (a group holds at most 100), each
 * DID's inbound route to its group.
 */
export async function benchHuntGroups(o: { apiUrl: string; token: string }, p: { agents: number; firstExtension: number; dids: string[]; name: string }): Promise<BenchAgent[]> {
  const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: object) => {
    const res = await fetch(`${o.apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`bench setup ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: number; extension: string; password: string } }).data;
  };
  const agents: BenchAgent[] = [];
  for (let i = 0; i < p.agents; i++) agents.push(await post('/t/demo/subscribers', { extension: String(p.firstExtension + i), display_name: `Bench ${p.firstExtension + i}` }));
  const share = Math.ceil(agents.length / p.dids.length);
  for (const [i, did] of p.dids.entries()) {
    // The seeded DIDs exist already (409); a new one is added to the tenant's numbers first.
    const number = await fetch(`${o.apiUrl}/pbx/partner/number?CodeCompany=demo`, { method: 'POST', headers, body: JSON.stringify({ number: did }) });
    if (number.status !== 201 && number.status !== 409) throw new Error(`bench setup number ${did}: ${number.status} ${await number.text()}`);
    const extensions = agents.slice(i * share, (i + 1) * share).map((a) => a.extension);
    const group = await post('/pbx/partner/group-inbounds?CodeCompany=demo', { name: `${p.name} ${i + 1}`, extensions, strategy: 'hunt', ring_time: 20 });
    await post('/pbx/partner/inbound?CodeCompany=demo', { did, destination: { type: 'group', target: String(group.id) } });
  }
  return agents.map((a) => ({ extension: a.extension, password: a.password }));
}

/** Registers every agent at Kamailio's UDP `proxyPort` with one contact, `contactPort` (one sipp phone answers for all). */
export async function registerAgents(agents: BenchAgent[], proxyPort: number, contactPort: number): Promise<void> {
  for (const a of agents) {
    const reg = await registerContact({ proxyPort, user: a.extension, domain: 'demo.tongdai.local', password: a.password, contactPort, expires: 3600 });
    if (reg !== 200) throw new Error(`REGISTER ${a.extension} for the bench: ${reg}`);
  }
}

/**
 * The stack's own Kamailio is swapped for one with plan timing and more shared memory (-m 512, a
 * thousand calls a second need it) on the same evapi port, so the API's event stream follows.
 */
export async function benchPbx(o: BenchOptions & { sip: StackSip }, p: { agents: number; firstExtension: number; dids: string[]; name: string; carriers?: number }): Promise<BenchPbx> {
  const agents = await benchHuntGroups(o, p);
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-calls-'));
  const udpPort = await freeUdpPort();
  const phonePort = await freeUdpPort();
  // sipp's carrier calls from a switchboard of the tenant (no open relay, ADR 0036); loopback, the
  // carriers' address, is then spared by the flood limit.
  const carrierPorts: number[] = [];
  for (let i = 0; i < (p.carriers ?? 1); i++) carrierPorts.push(await benchSwitchboard(o, `${p.name} carrier ${i + 1}`));
  const switchboardsAt = Date.now();
  const carrierPort = carrierPorts[0];
  const ports = sipPorts(o.apiPort);
  await o.sip.stop();
  const kamailio = await startKamailio({
    wsPort: await freeTcpPort(),
    udpPort,
    apiInternalUrl: `http://127.0.0.1:${ports.internalPort}/internal/sip`,
    internalSecret: o.sip.internalSecret,
    dir,
    evapiPort: ports.evapiPort,
    defines: ['TONGDAI_PLAN_TIMING'],
    // Every phone here is 127.0.0.1: spared from its first REGISTER, not only once the switchboard
    // timer has loaded the carriers' address (ten registrations in a second were banned before it).
    ...BENCH_KAMAILIO,
    shmMb: 512,
  });
  const phone = runSipp({ dir, name: 'phone', xml: answerScenario(0), args: ['-i', '127.0.0.1', '-p', String(phonePort), '-max_socket', '10000'], timeoutS: 900 });
  const close = async () => {
    phone.stop();
    await kamailio.stop();
    await o.sip.start();
    if (process.env.BENCH_KEEP) console.log(`call bench files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    await registerAgents(agents, udpPort, phonePort);
    // The API's evapi client reconnects to the new Kamailio by itself (every 500 ms).
    const calls = `http://127.0.0.1:${ports.internalPort}/internal/sip/calls`;
    for (let i = 0; i < 50 && !((await (await fetch(calls, { headers: { 'x-tongdai-internal': o.sip.internalSecret } })).json()) as { events_connected: boolean }).events_connected; i++) await new Promise((r) => setTimeout(r, 100));
    await carriersLoaded(kamailio.ctlSocket, switchboardsAt);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    kamailio, udpPort, dir, close, carrierPort, carrierPorts,
    cpu: () => [cpuSeconds((_, __, pgrp) => pgrp === kamailio.pid), cpuSeconds((pid, ppid) => pid === o.apiPid || ppid === o.apiPid)],
  };
}

/** Calls per second through Kamailio with the API's plans, and event → wall socket meanwhile. */
export async function callFigures(o: BenchOptions): Promise<Row[]> {
  if (!sippInstalled() || !o.sip) return [['Kamailio calls/s with API plans', 'skipped', '≥ 1000 cps', NOT_INSTALLED]];
  const pbx = await benchPbx({ ...o, sip: o.sip }, { agents: AGENTS, firstExtension: 7001, dids: [DID], name: 'Bench hunt' });
  const { kamailio, udpPort, dir, carrierPort } = pbx;
  const rows: Row[] = [];
  let walls: Walls | null = null;
  try {
    walls = await openWalls(o.apiUrl, o.token, WALLS);
    for (const rate of RATES) {
      walls?.take();
      const stats = join(dir, `stats-${rate}.csv`);
      const logFrom = statSync(kamailio.log).size;
      const cpu0 = pbx.cpu();
      const carrier = await runSipp({
        dir,
        name: `carrier-${rate}`,
        xml: carrierScenario(200, 0),
        // -recv_timeout: a call that waits 5 s for an answer counts as failed instead of holding sipp.
        args: [`127.0.0.1:${udpPort}`, '-i', '127.0.0.1', '-p', String(carrierPort), '-s', DID, '-r', String(rate), '-m', String(rate * SECONDS), '-recv_timeout', '5000', '-trace_stat', '-stf', stats, '-fd', '1'],
        keys: { caller: '0909000000', at: '' },
        timeoutS: SECONDS + 30,
      }).done;
      const cpu1 = pbx.cpu();
      const cpu = [cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]];
      const lines = sippStats(stats);
      const s = lines[lines.length - 1] ?? {};
      const ok = Number(s['SuccessfulCall(C)'] ?? 0);
      // Time until the last successful call ended (1 s resolution), not until sipp gave up on the others.
      const wall = Math.max(SECONDS, sippSeconds(lines.find((l) => Number(l['SuccessfulCall(C)']) === ok)?.['ElapsedTime(C)']));
      const failed = rate * SECONDS - ok;
      const plans = planTimes(kamailio.log, logFrom);
      rows.push(figure(
        `Trunk calls routed by API plans, offered ${rate} cps × ${SECONDS} s`,
        `${(ok / wall).toFixed(0)} cps done (${ok} ok, ${failed} failed${carrier.code ? `, sipp exit ${carrier.code}` : ''}); INVITE→200 avg ${(sippSeconds(s['ResponseTime1(C)']) * 1000).toFixed(0)} ms; plan p50 ${pct(plans, 50).toFixed(1)} / p99 ${pct(plans, 99).toFixed(1)} ms; CPU kamailio ${((cpu[0] / wall) * 100).toFixed(0)} %, api ${((cpu[1] / wall) * 100).toFixed(0)} %`,
        rate >= 1000 ? '≥ 1000 cps' : '—',
        !ok, `no call answered${carrier.code ? ` (sipp exit ${carrier.code}: ${sippWhy(carrier.output)})` : ''}`,
      ));
      const heard = walls?.take();
      rows.push(figure(
        `Event → wall socket during ${rate} cps, ${WALLS} walls open (p50 / p99)`,
        heard
          ? `${pct(heard.latencies, 50)} / ${pct(heard.latencies, 99)} ms over ${heard.latencies.length} events; up to ${heard.maxLiveCalls} live calls on the wall; api CPU above`
          : 'no WebSocket in this Node (--experimental-websocket)',
        '< 1000 ms',
        !heard?.latencies.length, heard ? 'no call event reached the walls' : 'no WebSocket in this Node (scripts/bench.mjs adds --experimental-websocket)',
      ));
    }

  } finally {
    walls?.close();
    await pbx.close();
  }
  return rows;
}
