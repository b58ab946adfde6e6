// `npm run bench -- soak` (issue 42): BENCH_SOAK_S (30 minutes by default) of mixed load on the bench's
// stack at steady rates, all at once: carrier calls through Kamailio to an announcement the media worker
// plays (media-bench's DID), carrier calls through Kamailio to a hunt group of registered phones (the
// call bench's), authenticated API list requests, report pages, and a progressive survey campaign whose
// agents work as the working screen does while its dialer calls a population through a carrier
// (dialer-calls-bench's floor). Every process of the stack is measured at the start (after a warm-up)
// and at the end: its resident memory (/proc's VmRSS; a daemon's processes summed, the shared memory they
// all map counted once: Kamailio's 27 processes each map its whole shm pool, so Σ VmRSS counts those pages
// 27 times and grows as more of them touch more of the pool; Σ VmRSS is printed beside it; Kamailio's own
// allocators' figures too) and, for the Node processes, the event loop's delay
// over a window (the API: GET /internal/sip/process on its internal listener; the media worker: SIGUSR2,
// a line in its log). Every error is counted (sipp's failed calls, HTTP non-2xx, the campaign's failures)
// and any one fails the section; so does memory growing over 10 % in a soak of BENCH_SOAK_JUDGE_S (600 s)
// or more (the smoke's seconds print it only: a garbage collector's cycle is longer).
import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CampaignProgress } from '@tongdai/contracts';
import { campaignApi } from '../../shared/contracts/src/campaigns.ts';
import { answerScenario, carrierScenario, listeningCallerScenario, runSipp, sippInstalled, type SippRun } from '@tongdai/testkit/sipp';
import { freeUdpPort } from '../../scripts/lib/ports.mjs';
import { sipPorts, type StackSip } from '../../scripts/lib/stack.mjs';
import { benchHuntGroups, NOT_INSTALLED, pct, registerAgents, sippStats, sippWhy } from './calls-bench.ts';
import { agentsAtWork, dialerFloor } from './dialer-calls-bench.ts';
import { announcementDid, hear, judge, type Stream } from './media-bench.ts';
import { judged, type Row } from './sections.ts';
import { benchSwitchboard, carriersLoaded } from './trust.ts';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(v) ? v : fallback;
};
/** How long the load runs (s), and from how long a soak judges memory growth (shorter: printed only). */
const SECONDS = num('BENCH_SOAK_S', 1800);
const JUDGE_FROM_S = num('BENCH_SOAK_JUDGE_S', 600);
/** Calls per second of each call load (the announcement; the phones) and how long each talks. */
const CPS = num('BENCH_SOAK_CPS', 2);
const TALK_S = num('BENCH_SOAK_TALK_S', 10);
/** API list requests and report pages per second (open loop: sent on time whatever the answers). */
const API_RATE = num('BENCH_SOAK_API_RATE', 20);
const REPORT_RATE = num('BENCH_SOAK_REPORT_RATE', 1);
/** The campaign's agents. */
const AGENTS = num('BENCH_SOAK_AGENTS', 3);
/** Not measured at first (code compiled, caches and pools filled, the calls up to their steady number), then the windows the loop delay is read over. */
const WARM_S = num('BENCH_SOAK_WARM_S', Math.min(180, Math.max(2, Math.round(SECONDS / 10))));
const WINDOW_S = Math.min(60, Math.max(2, Math.round(SECONDS / 20)));
const GROWTH = 0.1;

const ANNOUNCEMENT_DID = '02873000007';
const PHONES_DID = '02873000008';
const HOTLINE = '02873000009';
/** The population's numbers: 0999 7xx xxx (the dialer bench has 0999 6xx xxx). */
const contactNumber = (i: number) => `09997${String(i).padStart(5, '0')}`;
const SURVEY = campaignApi('survey');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 1 : 0) : '—');
const growth = (a: number, b: number) => (a ? (b - a) / a : NaN);
const signed = (g: number) => (Number.isFinite(g) ? `${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)} %` : '—');
/** Vietnam's calendar day (the reports' default range is today there). */
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

/** The live processes of process group `pgid` (a daemon's workers are in its group). */
function groupPids(pgid: number | null): number[] {
  if (!pgid) return [];
  const out: number[] = [];
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number)) {
    try {
      const [state, , pgrp] = readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push(p);
    } catch {
      /* exited */
    }
  }
  return out;
}

/**
 * Resident memory (bytes) of `pids`: `rss` counts what their pages take, the shared memory they map
 * (RssShmem: Kamailio's shm pool, mapped by each of its processes) once, as the largest any one of them
 * has touched; `sum` is Σ VmRSS, which counts it once per process. A process gone counts nothing.
 */
export function memoryOf(pids: number[]): { rss: number; sum: number } {
  let own = 0;
  let shared = 0;
  let sum = 0;
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
      own += kb('VmRSS') - kb('RssShmem');
      shared = Math.max(shared, kb('RssShmem'));
      sum += kb('VmRSS');
    } catch {
      /* exited, or not ours to read */
    }
  }
  return { rss: own + shared, sum };
}

/** Kamailio's own allocators (kamcmd over its ctl socket): shm in use, and pkg in use summed over its processes (bytes); null when it does not answer. */
export function kamailioMemory(ctlSocket: string): { shm: number; pkg: number } | null {
  const ask = (cmd: string) => spawnSync('kamcmd', ['-s', `unix:${ctlSocket}`, cmd], { encoding: 'utf8', timeout: 10_000 });
  const shm = ask('core.shmmem');
  const pkg = ask('pkg.stats');
  if (shm.status !== 0 || pkg.status !== 0) return null;
  const used = (text: string) => [...text.matchAll(/real_used:\s*(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  return { shm: used(shm.stdout), pkg: used(pkg.stdout) };
}

/** An event-loop delay window as the API's route and the worker's line give it (ms). */
interface LoopDelay {
  samples: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** What a Node process says of itself (api/src/modules/sip/process-stats.ts, media/src/process-stats.ts): its V8 heap, and the loop delay since the last read. */
interface NodeStats {
  heap_used_bytes: number;
  external_bytes: number;
  loop: LoopDelay | null;
}

/** A process of the stack: how to find its pids now, and (Node) how to read its stats, the loop delay since the last read. */
interface Watched {
  name: string;
  pids(): number[];
  loop?: () => Promise<NodeStats>;
  /** Why there is no loop figure, when it has none. */
  noLoop?: string;
}

interface Sample {
  rss: number;
  sum: number;
  processes: number;
  loop: LoopDelay | null;
  node: NodeStats | null;
}

/** The API's stats on its internal listener; `reset`: a new window starts after this read. */
async function apiLoop(internalUrl: string, secret: string): Promise<NodeStats> {
  const res = await fetch(`${internalUrl}/internal/sip/process?reset=1`, { headers: { 'x-tongdai-internal': secret }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /internal/sip/process: ${res.status} ${await res.text()}`);
  return (await res.json()) as NodeStats;
}

/** The media worker's stats: SIGUSR2, then its line in the log (media/src/process-stats.ts). */
async function workerLoop(pid: number | null, log: string): Promise<NodeStats> {
  if (!pid) throw new Error('the media worker is not running');
  // Only a media worker of this stack is signalled (a pid reused by something else would die of SIGUSR2).
  if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join('media', 'src', 'main.ts'))) throw new Error(`pid ${pid} is not the media worker`);
  const from = existsSync(log) ? statSync(log).size : 0;
  process.kill(pid, 'SIGUSR2');
  for (const until = Date.now() + 5000; Date.now() < until; await sleep(50)) {
    const text = readFileSync(log).subarray(from).toString();
    const line = /tongdai-process-stats (\{.*\})/.exec(text)?.[1];
    if (line) return JSON.parse(line) as NodeStats;
  }
  throw new Error(`the media worker printed no stats within 5 s of SIGUSR2 (${log})`);
}

/** One request of the paced loads: when it was sent (ms since the start), how long it took, its status (0: no answer). */
interface Sent {
  at: number;
  ms: number;
  status: number;
  path: string;
}

/**
 * Open loop: request k is sent at t0 + k / rate for `seconds`, whatever the answers (a slow server
 * meets the same arrivals). `path(k)` names it; the token is read at each send (renewed meanwhile).
 * `stopped()`: the soak ended early (it failed): no more requests.
 */
async function paced(o: { apiUrl: string; rate: number; seconds: number; t0: number; path: (k: number) => string; token: () => string; out: Sent[]; stopped: () => boolean }): Promise<void> {
  if (o.rate <= 0) return;
  const inFlight = new Set<Promise<void>>();
  for (let k = 0; ; k++) {
    const due = o.t0 + (k * 1000) / o.rate;
    if (due >= o.t0 + o.seconds * 1000) break;
    await sleep(due - performance.now());
    if (o.stopped()) break;
    const path = o.path(k);
    const sent = performance.now();
    const p = (async () => {
      let status = 0;
      try {
        const res = await fetch(`${o.apiUrl}${path}`, { headers: { authorization: `Bearer ${o.token()}` }, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        /* no answer within 30 s, or the connection failed: status 0 */
      }
      o.out.push({ at: sent - o.t0, ms: performance.now() - sent, status, path });
    })().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
}

/** A paced load's figure: answered, errors by status, latency overall and in the first and last windows. */
function requestsRow(what: string, rate: number, out: Sent[], windows: { start: [number, number]; end: [number, number] }): Row {
  const ok = out.filter((r) => r.status >= 200 && r.status < 300);
  const bad = out.filter((r) => !(r.status >= 200 && r.status < 300));
  const byStatus = new Map<string, number>();
  for (const r of bad) {
    const key = `${r.status || 'no answer'} ${r.path.split('?')[0]}`;
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  const lat = (from: number, to: number) => ok.filter((r) => r.at >= from * 1000 && r.at < to * 1000).map((r) => r.ms);
  const all = ok.map((r) => r.ms);
  const first = lat(...windows.start);
  const last = lat(...windows.end);
  const errors = [...byStatus].map(([k, n]) => `${n} × ${k}`).join(', ');
  return judged(
    `Soak: ${what} at ${rate}/s for ${SECONDS} s`,
    `${out.length} sent, ${ok.length} answered 2xx, ${bad.length} errors${errors ? ` (${errors})` : ''}; p50 ${ms(pct(all, 50))} / p99 ${ms(pct(all, 99))} ms; p99 in the first window ${ms(pct(first, 99))} ms → the last ${ms(pct(last, 99))} ms`,
    'no error',
    !ok.length || bad.length > 0,
    !ok.length ? 'no request was answered 2xx' : `${bad.length} requests failed: ${errors}`,
  );
}

export interface SoakOptions {
  apiUrl: string;
  apiPort: number;
  /** The API's process now. */
  apiPid(): number;
  /** A fresh administrator's token (a login). */
  token(): Promise<string>;
  sip: StackSip | null;
}

export async function soakFigures(o: SoakOptions): Promise<Row[]> {
  const title = `Soak: ${SECONDS} s of mixed load`;
  if (!sippInstalled() || !o.sip) return [[title, 'skipped', 'no error; memory ≤ +10 %', NOT_INSTALLED]];
  if (!o.sip.mediaAddress()) return [[title, 'skipped', 'no error; memory ≤ +10 %', "the media worker did not start (see the stack's media.log)"]];
  const sip = o.sip;
  let token = await o.token();
  const admin = { apiUrl: o.apiUrl, token };
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-soak-'));
  const runs: SippRun[] = [];
  const ear = createSocket({ type: 'udp4', recvBufferSize: 16 * 1024 * 1024 });
  await new Promise<void>((r) => ear.bind(0, '127.0.0.1', r));
  const earPort = (ear.address() as { port: number }).port;
  const streams = new Map<number, Stream>();
  ear.on('message', (m) => hear(streams, m, performance.now()));
  let floor: Awaited<ReturnType<typeof dialerFloor>> | null = null;
  let stopped = false;
  try {
    // The tenant's side, as an administrator sets it up: an announcement longer than any call, a hunt group of
    // extensions with room for every call talking at once, a switchboard for each carrier (sipp), the campaign's floor.
    await announcementDid(admin, { did: ANNOUNCEMENT_DID, seconds: Math.ceil(TALK_S) + 30, name: 'Bench soak thông báo' });
    const agents = await benchHuntGroups(admin, { agents: Math.ceil(CPS * (TALK_S + 3) * 1.5) + 2, firstExtension: 6001, dids: [PHONES_DID], name: 'Bench soak' });
    const since = Date.now();
    const announcementPort = await benchSwitchboard(admin, 'Bench soak announcement carrier');
    const phonesCarrierPort = await benchSwitchboard(admin, 'Bench soak phones carrier');
    const phonePort = await freeUdpPort();
    const phoneStats = join(dir, 'phone.csv');
    const phone = runSipp({ dir, name: 'phone', xml: answerScenario(0), args: ['-i', '127.0.0.1', '-p', String(phonePort), '-trace_stat', '-stf', phoneStats, '-fd', '1'], timeoutS: SECONDS + 600 });
    runs.push(phone);
    await registerAgents(agents, sip.udpPort, phonePort);
    floor = await dialerFloor({ ...admin, sip }, {
      name: 'Bench soak', users: 'bench.soak', agents: AGENTS, firstExtension: 8301, hotline: HOTLINE, carrier: { user: 'bench-soak', password: 'Bench-Soak-Digest-1' },
      population: { prefixes: ['09997'], answer: 0.8, busy: 0, answer_delay_s: [1, 3], busy_delay_s: [1, 1], talk_median_s: TALK_S, talk_sigma: 0.3 },
      seed: 42, mode: 'progressive', contacts: Math.ceil((AGENTS * SECONDS) / 2) + 50, contactNumber,
    });
    await carriersLoaded(join(sip.dir, 'kamailio_ctl'), Math.min(since, floor.since));
    const campaign = floor.campaignId;

    // What is measured: every process of the stack.
    const internal = `http://127.0.0.1:${sipPorts(o.apiPort).internalPort}`;
    const watched: Watched[] = [
      { name: 'API (node)', pids: () => [o.apiPid()], loop: () => apiLoop(internal, sip.internalSecret) },
      { name: 'Kamailio (all its processes)', pids: () => groupPids(sip.pids().kamailio), noLoop: 'not Node' },
      { name: 'Media worker (node)', pids: () => [sip.pids().mediaWorker].filter((p): p is number => !!p), loop: () => workerLoop(sip.pids().mediaWorker, join(sip.dir, 'media.log')) },
      ...(sip.pids().rtpengine ? [{ name: 'rtpengine', pids: () => groupPids(sip.pids().rtpengine), noLoop: 'not Node' }] : []),
    ];
    const sample = async (w: Watched, readLoop: boolean): Promise<Sample> => {
      const pids = w.pids();
      const node = readLoop && w.loop ? await w.loop() : null;
      return { ...memoryOf(pids), processes: pids.length, loop: node?.loop ?? null, node };
    };
    const peaks = new Map(watched.map((w) => [w.name, 0]));
    const ctl = join(sip.dir, 'kamailio_ctl');
    let kamailioStart: ReturnType<typeof kamailioMemory> = null;
    let kamailioEnd: ReturnType<typeof kamailioMemory> = null;

    // The load, all at once from t0.
    const t0 = performance.now();
    const load0 = loadavg()[0];
    const rate = (cps: number) => (cps >= 1 ? ['-r', String(cps), '-rp', '1000'] : ['-r', '1', '-rp', String(Math.round(1000 / cps))]);
    const calls = Math.max(1, Math.round(CPS * SECONDS));
    const limit = String(Math.ceil(CPS * (TALK_S + 5) * 2) + 10);
    const announcementStats = join(dir, 'announcement.csv');
    const announcement = runSipp({
      dir, name: 'announcement', xml: listeningCallerScenario({ keys: [], talkMs: TALK_S * 1000 }),
      args: [`127.0.0.1:${sip.udpPort}`, '-i', '127.0.0.1', '-p', String(announcementPort), '-s', ANNOUNCEMENT_DID, ...rate(CPS), '-m', String(calls), '-l', limit, '-recv_timeout', '15000', '-trace_stat', '-stf', announcementStats, '-fd', '1'],
      keys: { caller: '0909200000', at: '', rtp_port: String(earPort) },
      timeoutS: SECONDS + TALK_S + 120,
    });
    runs.push(announcement);
    const phonesStats = join(dir, 'phones.csv');
    const phones = runSipp({
      dir, name: 'phones', xml: carrierScenario(200, TALK_S * 1000),
      args: [`127.0.0.1:${sip.udpPort}`, '-i', '127.0.0.1', '-p', String(phonesCarrierPort), '-s', PHONES_DID, ...rate(CPS), '-m', String(calls), '-l', limit, '-recv_timeout', '15000', '-trace_stat', '-stf', phonesStats, '-fd', '1'],
      keys: { caller: '0909300000', at: '' },
      timeoutS: SECONDS + TALK_S + 120,
    });
    runs.push(phones);
    const api: Sent[] = [];
    const reports: Sent[] = [];
    const API_PATHS = ['/t/demo/customers?page=1', '/t/demo/customers?page=2&search=', '/t/demo/reports/call-history?page=1', '/t/demo/monitor/snapshot'];
    const REPORT_PATHS = () => [
      `/t/demo/reports/by-extension?from=${today()}&to=${today()}`,
      `/t/demo/reports/by-department-team?from=${today()}&to=${today()}`,
      `/t/demo/reports/carrier-calls?from=${today()}&to=${today()}`,
      '/t/demo/monitor/hourly',
      `/t/demo/${SURVEY.base}/${campaign}/progress`,
    ];
    const loads = Promise.all([
      paced({ apiUrl: o.apiUrl, rate: API_RATE, seconds: SECONDS, t0, path: (k) => API_PATHS[k % API_PATHS.length], token: () => token, out: api, stopped: () => stopped }),
      paced({ apiUrl: o.apiUrl, rate: REPORT_RATE, seconds: SECONDS, t0, path: (k) => REPORT_PATHS()[k % REPORT_PATHS().length], token: () => token, out: reports, stopped: () => stopped }),
    ]);
    const work = agentsAtWork(floor);
    await work.begin(campaign);
    // Tokens live 15 minutes, registrations an hour: every 10 minutes (a quarter of a shorter soak, at least a
    // minute) the administrator and the agents log in again and the phones register again.
    const loginErrors: string[] = [];
    const renew = setInterval(() => {
      void (async () => {
        try {
          token = await o.token();
          floor!.useToken(token);
          await floor!.relogin();
          await registerAgents(agents, sip.udpPort, phonePort);
        } catch (e) {
          loginErrors.push(e instanceof Error ? e.message : String(e));
        }
      })();
    }, Math.max(60, Math.min(600, SECONDS / 4)) * 1000);
    const memoryTimer = setInterval(() => {
      for (const w of watched) peaks.set(w.name, Math.max(peaks.get(w.name)!, memoryOf(w.pids()).rss));
    }, 5000);

    // The start: after the warm-up, a window of WINDOW_S; its end is the start's memory. The end: the last window.
    const at = (s: number) => sleep(t0 + s * 1000 - performance.now());
    let start: Sample[] = [];
    let end: Sample[] = [];
    let endAt = Infinity;
    let endWall = Infinity;
    try {
      await at(WARM_S);
      await Promise.all(watched.map((w) => w.loop?.()));
      await at(WARM_S + WINDOW_S);
      start = await Promise.all(watched.map((w) => sample(w, true)));
      kamailioStart = kamailioMemory(ctl);
      console.log(`bench: soak at ${WARM_S + WINDOW_S} s: ${watched.map((w, i) => `${w.name} ${mb(start[i].rss)}`).join(', ')}`);
      await at(Math.max(WARM_S + WINDOW_S, SECONDS - WINDOW_S));
      await Promise.all(watched.map((w) => w.loop?.()));
      await at(SECONDS);
      endAt = performance.now();
      endWall = Date.now();
      end = await Promise.all(watched.map((w) => sample(w, true)));
      kamailioEnd = kamailioMemory(ctl);
    } finally {
      clearInterval(memoryTimer);
      clearInterval(renew);
      work.stop();
    }
    const load1 = loadavg()[0];

    // The processes: memory and loop delay at the start and the end, printed at once (what follows may fail).
    const judging = SECONDS >= JUDGE_FROM_S;
    const goal = judging ? `≤ +${GROWTH * 100} % RSS` : `≤ +${GROWTH * 100} % RSS (judged from ${JUDGE_FROM_S} s; ${SECONDS} s: printed only)`;
    const loopText = (l: LoopDelay | null) => (l ? `${ms(l.p50_ms)} / ${ms(l.p99_ms)} ms` : '—');
    const processRows: Row[] = [];
    const table: string[][] = [];
    for (const [i, w] of watched.entries()) {
      const a = start[i];
      const b = end[i];
      const g = growth(a.rss, b.rss);
      const peak = Math.max(peaks.get(w.name)!, a.rss, b.rss);
      // Several processes: Σ VmRSS beside (shared memory counted once per process).
      const sums = a.processes > 1 || b.processes > 1 ? `; Σ VmRSS of ${b.processes}: ${mb(a.sum)} → ${mb(b.sum)} (${signed(growth(a.sum, b.sum))})` : '';
      // Kamailio: its allocators' own figures; a Node process: its V8 heap and what V8 holds outside it (buffers, WebAssembly).
      const own = w.name.startsWith('Kamailio') && kamailioStart && kamailioEnd
        ? `; in use: shm ${mb(kamailioStart.shm)} → ${mb(kamailioEnd.shm)}, pkg ${mb(kamailioStart.pkg)} → ${mb(kamailioEnd.pkg)}`
        : a.node && b.node
          ? `; V8 heap used ${mb(a.node.heap_used_bytes)} → ${mb(b.node.heap_used_bytes)}, external ${mb(a.node.external_bytes)} → ${mb(b.node.external_bytes)}`
          : '';
      table.push([w.name, mb(a.rss), mb(b.rss), signed(g), mb(peak), w.loop ? loopText(a.loop) : w.noLoop ?? '—', w.loop ? loopText(b.loop) : w.noLoop ?? '—', `${sums}${own}`.replace(/^; /, '')]);
      const measuredNothing = !a.processes || !b.processes || !a.rss || !b.rss || (!!w.loop && (!a.loop?.samples || !b.loop?.samples));
      processRows.push(judged(
        `Soak: ${w.name}: RSS start → end; loop delay p50 / p99`,
        `${mb(a.rss)} → ${mb(b.rss)} (${signed(g)}; peak ${mb(peak)}${sums}${own})${w.loop ? `; loop ${loopText(a.loop)} → ${loopText(b.loop)}` : ` (${w.noLoop})`}`,
        goal,
        measuredNothing || (judging && g > GROWTH),
        measuredNothing ? `${w.name}: not measured (${!a.processes || !b.processes ? 'process not found' : 'no loop delay samples'})` : `${w.name} grew ${signed(g)} (> ${GROWTH * 100} %)`,
      ));
    }
    const head = ['Process', `RSS at ${WARM_S + WINDOW_S} s`, `RSS at ${SECONDS} s`, 'Growth', 'Peak', `Loop p50 / p99 (${WARM_S}–${WARM_S + WINDOW_S} s)`, `Loop p50 / p99 (${SECONDS - WINDOW_S}–${SECONDS} s)`, 'Beside'];
    const width = head.map((h, c) => Math.max(h.length, ...table.map((r) => r[c].length)));
    const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(width[c])).join(' | ')} |`;
    console.log([
      '',
      `Soak: ${SECONDS} s; load average ${load0.toFixed(2)} → ${load1.toFixed(2)} (${cpus().length} cores); goal: RSS growth ≤ ${GROWTH * 100} %${judging ? '' : ` (judged from ${JUDGE_FROM_S} s: printed only)`}, no error`,
      line(head), line(width.map((n) => '-'.repeat(n))), ...table.map(line), '',
    ].join('\n'));

    // The campaign's figures, then its calls still up are hung up by the agents (talk past the end is not counted).
    let progress: CampaignProgress | null = null;
    const teardownErrors: string[] = [];
    try {
      progress = await floor.call<CampaignProgress>('GET', `/t/demo/${SURVEY.base}/${campaign}/progress`);
      await floor.call('POST', `/t/demo/${SURVEY.state(campaign)}`, { to: 'paused' });
    } catch (e) {
      teardownErrors.push(e instanceof Error ? e.message : String(e));
    }
    await work.notReady(campaign);
    for (const c of floor.phones.calls.values()) if (c.endedAt === undefined) floor.phones.hangUp(c);
    await loads;
    // The calls' loads placed their last calls by the end: they end after TALK_S.
    const [announced, phoned] = await Promise.all([announcement.done, phones.done]);
    await sleep(1500); // the phone's last statistics line
    phone.stop();

    const rows: Row[] = [];
    const last = (file: string) => {
      try {
        return sippStats(file).at(-1) ?? {};
      } catch {
        return {};
      }
    };
    const j = judge(streams);
    const callsRow = (what: string, stats: string, run: { code: number | null; output: string }, extra: string) => {
      const s = last(stats);
      const ok = Number(s['SuccessfulCall(C)'] ?? 0);
      const failed = Number(s['FailedCall(C)'] ?? 0);
      return judged(
        `Soak: ${what}, ${CPS} cps × ${TALK_S} s talk for ${SECONDS} s`,
        `${ok} ok, ${failed} failed of ${calls}${run.code ? ` (sipp exit ${run.code}: ${sippWhy(run.output)})` : ''}${extra}`,
        'no failed call',
        !ok || failed > 0 || !!run.code,
        !ok ? `no call completed${run.code ? ` (sipp exit ${run.code}: ${sippWhy(run.output)})` : ''}` : `${failed} calls failed${run.code ? `, sipp exit ${run.code}: ${sippWhy(run.output)}` : ''}`,
      );
    };
    rows.push(callsRow('carrier calls through Kamailio to an announcement (media worker)', announcementStats, announced,
      `; ${streams.size} streams heard, ${((j.short / (j.realTime || 1)) * 100).toFixed(2)} % frames lost (${j.short} of ${j.realTime})`));
    const phoneFailed = Number(last(phoneStats)['FailedCall(C)'] ?? 0);
    rows.push(callsRow(`carrier calls through Kamailio to a hunt group of ${agents.length} registered phones`, phonesStats, phoned, phoneFailed ? `; the phones: ${phoneFailed} failed` : ''));
    const windows = { start: [WARM_S, WARM_S + WINDOW_S] as [number, number], end: [SECONDS - WINDOW_S, SECONDS] as [number, number] };
    rows.push(requestsRow(`API lists (customers, call history, the live wall's snapshot)`, API_RATE, api, windows));
    rows.push(requestsRow(`report pages (by extension, by department, carrier calls, the dashboard's hours, the campaign's progress)`, REPORT_RATE, reports, windows));

    // The campaign: every dial the carrier saw; a person who would answer and was not, an abandoned call, a refused request: failures.
    // Counted until the end (the calls placed or ended after it, as the campaign was paused, are not).
    const dialled = floor.carrier.calls().filter((c) => c.direction === 'in' && c.population && Date.parse(c.started_at) <= endWall);
    const lost = dialled.filter((c) => c.population!.fate === 'answered' && !c.answered_at && c.ended_at && Date.parse(c.ended_at) <= endWall).length;
    const connected = [...floor.phones.calls.values()].filter((c) => c.answeredAt <= endAt).length;
    const abandoned = progress?.dialer?.abandoned ?? 0;
    const failures = work.errors.length + lost + abandoned + loginErrors.length + teardownErrors.length;
    rows.push(judged(
      `Soak: a progressive campaign, ${AGENTS} agent${AGENTS === 1 ? '' : 's'}, its dialer calling a population (80 % answer after 1–3 s, talk ~${TALK_S} s)`,
      `${dialled.length} dials, ${progress?.dialer?.answered ?? '?'} answered, ${connected} connected to agents, ${abandoned} abandoned, ${lost} answerers missed, ${work.errors.length} refused requests` +
        `${loginErrors.length ? `, ${loginErrors.length} failed logins` : ''}; contacts ${progress ? `${progress.done} done of ${progress.total}` : `? (not read: ${teardownErrors[0]})`}`,
      'no failure',
      !connected || failures > 0,
      !connected
        ? `no call was connected to an agent (${dialled.length} dials)`
        : [work.errors[0], loginErrors[0], teardownErrors[0], abandoned ? `${abandoned} abandoned` : '', lost ? `${lost} answerers missed` : ''].filter(Boolean).join('; '),
    ));
    return [...rows, ...processRows];
  } finally {
    stopped = true;
    for (const r of runs) r.stop();
    floor?.close();
    ear.close();
    if (process.env.BENCH_KEEP) console.log(`soak bench files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
