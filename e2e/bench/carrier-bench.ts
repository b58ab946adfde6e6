// `npm run bench`, carrier part (issue 15): calls per second out through a switchboard whose carrier
// wants digest. The caller is a sipp UAC as extension 101 (digest to Kamailio, the API's plan picks
// the outbound rule "Di động qua nhà mạng demo" → the switchboard); the carrier is a sipp UAS that
// challenges every INVITE and checks Kamailio's answer (verifyauth): a call counts only when the
// carrier accepted the credentials. Each call is INVITE → 401 → INVITE with credentials → 180 → 200
// → ACK → BYE. The switchboard row comes from the API's demo-carrier seed (DEMO_CARRIER_* below,
// register off: the sipp carrier answers INVITEs only). A baseline row measures the same sipp pair
// without Kamailio, so the generator's own limit on this machine is known.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKamailio } from '../../scripts/lib/kamailio.mjs';
import { freeTcpPort, freeUdpPort } from '../../scripts/lib/ports.mjs';
import { sipPorts, type StackSip } from '../../scripts/lib/stack.mjs';
import { extensionCallScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { digestCarrierScenario } from '@tongdai/testkit/sipp-carrier';
import { cpuSeconds, pct, planTimes, sippSeconds, sippStats } from './calls-bench.ts';

const RATES = (process.env.BENCH_CARRIER_CPS ?? '200,500,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_CALL_SECONDS ?? 10);
/** A Viettel mobile: the seeded outbound rule for mobiles carries it. */
const DIALLED = '0912345678';
const TRUNK = { user: 'bench-trunk', password: 'Bench-Carrier-Digest-1' };
const DOMAIN = 'demo.tongdai.local';

/** The sipp carrier's SIP port for a stack on apiPort (beside the demo carrier's apiPort + 94/95). */
export const benchCarrierPort = (apiPort: number) => apiPort + 96;

/** API environment that points the demo tenant's switchboard at the bench's sipp carrier. */
export function carrierBenchEnv(apiPort: number): Record<string, string> {
  return {
    DEMO_CARRIER: `127.0.0.1:${benchCarrierPort(apiPort)}`,
    DEMO_CARRIER_USER: TRUNK.user,
    DEMO_CARRIER_PASSWORD: TRUNK.password,
    DEMO_CARRIER_MAX_CHANNELS: '2000',
    DEMO_CARRIER_REGISTER: '0',
  };
}

interface Offered {
  ok: number;
  failed: number;
  wall: number;
  setupMs: number;
  /** INVITE → 200 of every answered call (ms), from sipp's -trace_rtt file. */
  setups: number[];
  sippExit: number | null;
  /** Calls the carrier accepted (credentials verified, answered, BYE received). */
  carrierOk: number;
}

/** One rate: the UAC offers rate × SECONDS calls to `target`; the carrier's counters are read around it. */
async function offer(o: { dir: string; name: string; target: string; rate: number; seconds?: number; challenge: 401 | 407; carrierStats: string; auth: { user: string; password: string } }): Promise<Offered> {
  const seconds = o.seconds ?? SECONDS;
  const stats = join(o.dir, `${o.name}.csv`);
  const lastOk = (file: string) => {
    try {
      const lines = sippStats(file);
      return Number(lines[lines.length - 1]?.['SuccessfulCall(C)'] ?? 0);
    } catch {
      return 0;
    }
  };
  const carrierBefore = lastOk(o.carrierStats);
  const run = await runSipp({
    dir: o.dir,
    name: o.name,
    xml: extensionCallScenario(200, o.auth, 0, o.challenge),
    args: [o.target, '-i', '127.0.0.1', '-p', '0', '-s', DIALLED, '-r', String(o.rate), '-m', String(o.rate * seconds), '-recv_timeout', '5000', '-trace_stat', '-stf', stats, '-fd', '1', '-trace_rtt', '-rtt_freq', '1'],
    keys: { caller: '101', domain: DOMAIN },
    timeoutS: seconds + 30,
  }).done;
  // The carrier writes its counters once a second: wait for the line after the last call.
  await new Promise((r) => setTimeout(r, 1500));
  const lines = sippStats(stats);
  const s = lines[lines.length - 1] ?? {};
  const ok = Number(s['SuccessfulCall(C)'] ?? 0);
  const wall = Math.max(seconds, sippSeconds(lines.find((l) => Number(l['SuccessfulCall(C)']) === ok)?.['ElapsedTime(C)']));
  const rtt = readdirSync(o.dir).find((f) => f.startsWith(`${o.name}_`) && f.endsWith('_rtt.csv'));
  const setups = rtt ? readFileSync(join(o.dir, rtt), 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(';')[1])).filter((x) => Number.isFinite(x)) : [];
  return { ok, failed: o.rate * seconds - ok, wall, setupMs: sippSeconds(s['ResponseTime1(C)']) * 1000, setups, sippExit: run.code, carrierOk: lastOk(o.carrierStats) - carrierBefore };
}

const summary = (r: Offered) => `${(r.ok / r.wall).toFixed(0)} cps done (${r.ok} ok, ${r.failed} failed = ${((r.failed / (r.ok + r.failed)) * 100).toFixed(2)} %${r.sippExit ? `, sipp exit ${r.sippExit}` : ''}); carrier verified ${r.carrierOk}; INVITE→200 ${r.setups.length ? `p50 ${pct(r.setups, 50).toFixed(0)} / p99 ${pct(r.setups, 99).toFixed(0)}` : `avg ${r.setupMs.toFixed(0)}`} ms`;

/**
 * The stack's Kamailio is swapped (as in calls-bench) for one with plan timing, 512 MB of shared
 * memory and the flood limit raised (every caller here is 127.0.0.1, which is not a trusted trunk:
 * the extension must authenticate), on the same evapi port.
 */
export async function carrierFigures(o: { apiPort: number; apiPid: number; sip: StackSip | null; extensionPassword: string }): Promise<[string, string, string][]> {
  if (!sippInstalled() || !o.sip) return [['Calls out through a switchboard with digest at the carrier', 'skipped: sipp or Kamailio is not installed', '≥ 1000 cps, < 1 % failed']];
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-carrier-'));
  const rows: [string, string, string][] = [];
  const carrierPort = benchCarrierPort(o.apiPort);
  const carrierStats = join(dir, 'carrier.csv');
  const carrier = runSipp({
    dir,
    name: 'carrier',
    xml: digestCarrierScenario({ ...TRUNK, realm: 'bench-carrier' }),
    args: ['-i', '127.0.0.1', '-p', String(carrierPort), '-max_socket', '10000', '-trace_stat', '-stf', carrierStats, '-fd', '1'],
    timeoutS: 900,
  });
  const ports = sipPorts(o.apiPort);
  let kamailio: Awaited<ReturnType<typeof startKamailio>> | null = null;
  try {
    // Baseline: the same UAC straight to the sipp carrier with the trunk's credentials (no Kamailio, no API).
    for (const rate of RATES) {
      const r = await offer({ dir, name: `direct-${rate}`, target: `127.0.0.1:${carrierPort}`, rate, challenge: 401, carrierStats, auth: TRUNK });
      rows.push([`Baseline: sipp UAC → sipp carrier with digest, no Kamailio, offered ${rate} cps × ${SECONDS} s`, summary(r), '—']);
    }
    await o.sip.stop();
    const udpPort = await freeUdpPort();
    kamailio = await startKamailio({
      wsPort: await freeTcpPort(),
      udpPort,
      apiInternalUrl: `http://127.0.0.1:${ports.internalPort}/internal/sip`,
      internalSecret: o.sip.internalSecret,
      dir: join(dir, 'kamailio'),
      evapiPort: ports.evapiPort,
      defines: ['TONGDAI_PLAN_TIMING'],
    // The stack's allow-list (run.ts): the bench's carriers listen on loopback (ADR 0043).
    trunkAllowedNetworks: '127.0.0.1/32',
      floodDensity: 1_000_000,
      shmMb: 512,
    });
    // Warm-up, not counted: the API's plan code compiled and the extension's credentials cached, as
    // on a system that has been taking calls (a cold first second otherwise decides the first rate).
    await offer({ dir, name: 'warm-up', target: `127.0.0.1:${udpPort}`, rate: 50, seconds: 4, challenge: 407, carrierStats, auth: { user: '101', password: o.extensionPassword } });
    for (const rate of RATES) {
      const logFrom = statSync(kamailio.log).size;
      const k = kamailio;
      const kamailioCpu = () => cpuSeconds((_, __, pgrp) => pgrp === k.pid);
      const apiCpu = () => cpuSeconds((pid, ppid) => pid === o.apiPid || ppid === o.apiPid);
      const cpu0 = [kamailioCpu(), apiCpu()];
      // Kamailio challenges the extension with 407; the carrier challenges Kamailio with 401.
      const r = await offer({ dir, name: `switchboard-${rate}`, target: `127.0.0.1:${udpPort}`, rate, challenge: 407, carrierStats, auth: { user: '101', password: o.extensionPassword } });
      const cpu = [kamailioCpu() - cpu0[0], apiCpu() - cpu0[1]];
      const plans = planTimes(kamailio.log, logFrom);
      rows.push([
        `Extension → switchboard with digest at the carrier, offered ${rate} cps × ${SECONDS} s`,
        `${summary(r)}; plan p50 ${pct(plans, 50).toFixed(1)} / p99 ${pct(plans, 99).toFixed(1)} ms; CPU kamailio ${((cpu[0] / r.wall) * 100).toFixed(0)} %, api ${((cpu[1] / r.wall) * 100).toFixed(0)} %`,
        rate >= 1000 ? '≥ 1000 cps, < 1 % failed' : '< 1 % failed',
      ]);
    }
  } finally {
    carrier.stop();
    await kamailio?.stop();
    await o.sip.start();
    if (process.env.BENCH_KEEP) console.log(`carrier bench files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
