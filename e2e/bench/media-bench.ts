// `npm run bench`, media worker part: how many calls one worker keeps playing audio to at once
// with under 1 % of RTP frames lost. A sipp carrier (a switchboard of the demo tenant, as a real
// carrier must be: ADR 0036) calls a DID whose notification plays a greeting longer than the calls;
// every call's SDP points at one socket of this process, which tells the calls apart by SSRC and
// compares the frames received with those the RTP timestamps say were sent. Calls start at up to
// BENCH_MEDIA_CPS a second and each lasts the ramp plus TALK_MS, so all of them play at once for
// TALK_MS at least.
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningCallerScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { toneWav } from '@tongdai/testkit/wav';
import type { StackSip } from '../../scripts/lib/stack.mjs';
import { cpuSeconds, NOT_INSTALLED, sippStats, sippWhy } from './calls-bench.ts';
import { benchSwitchboard, carriersLoaded } from './trust.ts';
import { figure, type Row } from './sections.ts';

const LEVELS = (process.env.BENCH_MEDIA_CALLS ?? '100,200,400,1000').split(',').map(Number);
const TALK_MS = Number(process.env.BENCH_MEDIA_TALK_MS ?? 10_000);
const CPS = Number(process.env.BENCH_MEDIA_CPS ?? 50);
const DID = '02873000004';
/** Ramp (calls started at CPS) plus TALK_MS: how long each call of a level lasts. */
const callMs = (calls: number) => Math.ceil((Math.min(calls, CPS) > 0 ? calls / Math.min(calls, CPS) : 0) * 1000) + TALK_MS;

/** One call's audio as heard: packets, first and last RTP timestamps and arrival times (ms). */
export interface Stream {
  n: number;
  firstTs: number;
  lastTs: number;
  firstAt: number;
  lastAt: number;
}

export function hear(streams: Map<number, Stream>, m: Buffer, at: number) {
  if (m.length < 12 || (m[1] & 0x7f) !== 0) return;
  const ssrc = m.readUInt32BE(8);
  const ts = m.readUInt32BE(4);
  let s = streams.get(ssrc);
  if (!s) streams.set(ssrc, (s = { n: 0, firstTs: ts, lastTs: ts, firstAt: at, lastAt: at }));
  s.n++;
  s.lastAt = at;
  if (((ts - s.lastTs) | 0) > 0) s.lastTs = ts;
}

/**
 * What the streams lacked. `realTime`: frames their arrival span asked for (one per 20 ms); `short`:
 * those missing, which counts frames the worker's clock skipped when it fell behind (it skips them
 * without advancing the RTP timestamps) as well as frames lost on the way; `gaps`: frames missing by
 * the RTP timestamps alone (lost on the way).
 */
export function judge(streams: Map<number, Stream>) {
  let realTime = 0;
  let short = 0;
  let gaps = 0;
  let received = 0;
  for (const s of streams.values()) {
    const asked = Math.round((s.lastAt - s.firstAt) / 20) + 1;
    realTime += asked;
    short += Math.max(0, asked - s.n);
    gaps += Math.max(0, ((s.lastTs - s.firstTs) >>> 0) / 160 + 1 - s.n);
    received += s.n;
  }
  return { realTime, short, gaps: Math.round(gaps), received };
}

/** Datagrams the kernel dropped on this machine's UDP socket bound to `port` (its receive buffer was full): /proc/net/udp's last column. */
export function udpDrops(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(hex)) return Number(f[f.length - 1]) || 0;
  }
  return 0;
}

/**
 * CPU seconds of this stack's media worker (node … media/src/main.ts with MEDIA_PORT = its port): other
 * checkouts' workers run on this machine too, and one of them ending made the sum go backwards.
 */
const workerCpu = (port: string) =>
  cpuSeconds((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media/src/main.ts') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`MEDIA_PORT=${port}`);
    } catch {
      return false; // exited, or not ours to read
    }
  });

/**
 * A DID of the demo tenant whose calls the media worker answers with an announcement, as an
 * administrator sets one up: a greeting (a 500 Hz tone of `seconds`) uploaded, a notification playing
 * it, the number added to the tenant, its inbound route to the notification. `name` names the
 * notification (the greeting: "Bench <seconds> s").
 */
export async function announcementDid(o: { apiUrl: string; token: string }, p: { did: string; seconds: number; name: string }): Promise<void> {
  const auth = { authorization: `Bearer ${o.token}` };
  const json = async (path: string, body: object | FormData) => {
    const res = await fetch(`${o.apiUrl}${path}`, { method: 'POST', headers: body instanceof FormData ? auth : { ...auth, 'content-type': 'application/json' }, body: body instanceof FormData ? body : JSON.stringify(body) });
    if (!res.ok) throw new Error(`bench setup ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: number } }).data;
  };
  const form = new FormData();
  form.set('name', `Bench ${p.seconds} s`);
  form.set('file', new Blob([new Uint8Array(toneWav(p.seconds, 500, 8000))], { type: 'audio/wav' }), 'bench.wav');
  const greeting = await json('/pbx/partner/greeting?CodeCompany=demo', form);
  const msg = await json('/pbx/partner/message?CodeCompany=demo', { name: p.name, greeting_id: greeting.id });
  await json('/pbx/partner/number?CodeCompany=demo', { number: p.did });
  await json('/pbx/partner/inbound?CodeCompany=demo', { did: p.did, destination: { type: 'msg', target: String(msg.id) } });
}

export async function mediaFigures(o: { apiUrl: string; token: string; sip: StackSip | null }): Promise<Row[]> {
  if (!sippInstalled() || !o.sip) return [['Media worker concurrent calls', 'skipped', '< 1 % lost frames', NOT_INSTALLED]];
  if (!o.sip.mediaAddress()) return [['Media worker concurrent calls', 'skipped', '< 1 % lost frames', 'the media worker did not start (see the stack\'s media.log)']];
  const workerPort = o.sip.mediaAddress()!.split(':')[1];
  // The greeting outlasts the longest call: the caller hangs up, never the worker.
  await announcementDid(o, { did: DID, seconds: Math.ceil(Math.max(...LEVELS.map(callMs)) / 1000) + 5, name: 'Bench thông báo' });
  const carrierPort = await benchSwitchboard(o, 'Bench media carrier', Math.min(2000, Math.max(...LEVELS)));
  await carriersLoaded(join(o.sip.dir, 'kamailio_ctl'), Date.now());

  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-media-'));
  // One socket hears every call: a big receive buffer (the kernel caps it at net.core.rmem_max), and
  // what it drops anyway is counted apart, so the worker's losses are told from the bench's.
  const ear = createSocket({ type: 'udp4', recvBufferSize: 16 * 1024 * 1024 });
  await new Promise<void>((r) => ear.bind(0, '127.0.0.1', r));
  const rows: Row[] = [];
  try {
    for (const calls of LEVELS) {
      const streams = new Map<number, Stream>();
      const onPacket = (m: Buffer) => hear(streams, m, performance.now());
      ear.on('message', onPacket);
      const cpu0 = workerCpu(workerPort);
      // This process hears every stream: on one machine its CPU is taken from the worker's cores.
      const ear0 = process.cpuUsage();
      const earPort = (ear.address() as { port: number }).port;
      const drops0 = udpDrops(earPort);
      const t0 = Date.now();
      const load0 = loadavg()[0];
      const stats = join(dir, `media-${calls}.csv`);
      const rate = Math.min(calls, CPS);
      const run = await runSipp({
        dir,
        name: `media-${calls}`,
        xml: listeningCallerScenario({ keys: [], talkMs: callMs(calls) }),
        args: [`127.0.0.1:${o.sip.udpPort}`, '-i', '127.0.0.1', '-p', String(carrierPort), '-s', DID, '-r', String(rate), '-l', String(calls), '-m', String(calls), '-trace_stat', '-stf', stats, '-fd', '1'],
        keys: { caller: '0909100000', at: '', rtp_port: String(earPort) },
        timeoutS: Math.ceil(callMs(calls) / 1000) + 60,
      }).done;
      const wall = (Date.now() - t0) / 1000;
      const cpu = workerCpu(workerPort) - cpu0;
      const earCpu = process.cpuUsage(ear0);
      // Frames this process's socket dropped are the bench's loss, not the worker's: said apart.
      const earDrops = udpDrops(earPort) - drops0;
      ear.off('message', onPacket);
      let answered = 0;
      try {
        answered = Number(sippStats(stats).at(-1)?.['SuccessfulCall(C)'] ?? 0);
      } catch {
        /* sipp wrote no statistics: it failed at once */
      }
      const j = judge(streams);
      const pc = (n: number) => `${((n / (j.realTime || 1)) * 100).toFixed(2)} %`;
      rows.push(figure(
        `Media worker: ${calls} calls playing at once (${TALK_MS / 1000} s all together; started at ${rate}/s)`,
        `${streams.size} streams heard, ${pc(j.short)} frames lost (${j.short} of ${j.realTime} the clock asked for; by RTP timestamps ${j.gaps}${earDrops ? `; ${earDrops} dropped by the bench's own socket` : ''}); ${answered} of ${calls} calls completed; worker CPU ${((cpu / wall) * 100).toFixed(0)} % (the bench's ear ${(((earCpu.user + earCpu.system) / 1e6 / wall) * 100).toFixed(0)} %)${run.code ? `; sipp exit ${run.code} (${sippWhy(run.output)})` : ''}; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
        '< 1 % lost frames',
        !streams.size || !j.received || !answered,
        `${!streams.size || !j.received ? 'no stream heard' : 'no call completed'}${run.code ? ` (sipp exit ${run.code}: ${sippWhy(run.output)})` : ''}`,
      ));
    }
  } finally {
    ear.close();
    if (process.env.BENCH_KEEP) console.log(`media bench files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
