// `npm run bench -- otp` (issue 35): voice-OTP as an application uses it. An API key starts
// verifications (POST /otp/v1/verifications) for distinct numbers, first at a steady BENCH_OTP_RATE a
// second for BENCH_OTP_SECONDS (the latency goal's load), then BENCH_OTP_BURST as fast as
// BENCH_OTP_CONCURRENCY requests in flight allow (the starts per second one application gets); the media worker calls each through the demo tenant's OTP hotline, whose
// switchboard is this process (otp-callee.ts: it notes when each number's INVITE arrives and answers
// with its RTP pointed at one socket here, which hears every call as the media bench does). Measured:
// starts per second, start → the callee's phone ringing (p50 / p99, goal: within 1 s at p99), the calls
// talking at once and the audio frames they lacked (goal: none), and how many verifications the API
// reads as completed.
import { createSocket } from 'node:dgram';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { StackSip } from '../../scripts/lib/stack.mjs';
import { pct } from './calls-bench.ts';
import { hear, judge, udpDrops, type Stream } from './media-bench.ts';
import { OtpCallees } from './otp-callee.ts';
import { figure, type Row } from './sections.ts';
import { benchSwitchboardRow, carriersLoaded } from './trust.ts';

/** Verifications started per second (open loop: at that pace whatever the answers) and for how long: 10 × 10 s keeps 100 calls talking at once at the end (each ~13 s). */
const RATE = Number(process.env.BENCH_OTP_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_OTP_SECONDS ?? 10);
/** Then a burst: this many starts, CONCURRENCY requests in flight (what one application can push). */
const BURST = Number(process.env.BENCH_OTP_BURST ?? 100);
const CONCURRENCY = Number(process.env.BENCH_OTP_CONCURRENCY ?? 10);
const HOTLINE = '02873000005';
/** The bench's callees: Viettel mobiles 0389 xxx xxx, a new one per call (3 calls per number in 10 minutes). */
const number = (i: number) => `0389${String(i).padStart(6, '0')}`;

interface Started {
  phone: string;
  id?: string;
  /** performance.now() when the request was sent and when its answer came. */
  sentAt: number;
  answeredAt: number;
  status: number;
}

export async function otpFigures(o: { apiUrl: string; token: string; sip: StackSip | null }): Promise<Row[]> {
  if (!o.sip?.mediaAddress()) return [['Voice-OTP calls', 'skipped', '≤ 1 s start → ringing (p99)', o.sip ? 'the media worker did not start (see the stack\'s media.log)' : 'Kamailio is not installed']];
  const auth = { authorization: `Bearer ${o.token}` };
  const call = async <T>(method: string, path: string, body?: object): Promise<T> => {
    const res = await fetch(`${o.apiUrl}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`bench setup ${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  // The tenant's side, as an administrator sets it: a switchboard (the callees' carrier), a hotline on it
  // enabled for OTP, a rule that lets the bench's numbers out through it, and an application's key.
  const board = await benchSwitchboardRow(o, 'Bench OTP carrier', 2000);
  await call('POST', '/t/demo/etelecom/hotlines', { number: HOTLINE, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });
  const numbers = await call<{ id: number; number: string }[]>('GET', '/t/demo/voice-otp/numbers');
  const hotline = numbers.find((n) => n.number.replace(/\D/g, '') === HOTLINE);
  if (!hotline) throw new Error(`bench setup: ${HOTLINE} is not among the OTP numbers (${numbers.map((n) => n.number).join(', ')})`);
  await call('PUT', `/t/demo/voice-otp/numbers/${hotline.id}`, { otp_enabled: true });
  await call('POST', '/pbx/partner/rule?CodeCompany=demo', { name: 'Bench OTP', pattern: '0389XXXXXX', switchboard_ids: [board.id], caller_id_mode: 'carrier', priority: 0 });
  const key = await call<{ secret: string }>('POST', '/t/demo/voice-otp/keys', { name: 'Bench OTP', retry_after_s: 0 });
  await carriersLoaded(join(o.sip.dir, 'kamailio_ctl'), Date.now());

  const ear = createSocket({ type: 'udp4', recvBufferSize: 16 * 1024 * 1024 });
  await new Promise<void>((r) => ear.bind(0, '127.0.0.1', r));
  const earPort = (ear.address() as { port: number }).port;
  const callees = await OtpCallees.open({ port: board.port, earPort });
  const rows: Row[] = [];
  let next = 0;
  try {
    for (const level of [{ paced: true, calls: Math.round(RATE * SECONDS) }, { paced: false, calls: BURST }]) {
      const { calls, paced } = level;
      if (!calls) continue;
      const streams = new Map<number, Stream>();
      const onPacket = (m: Buffer) => hear(streams, m, performance.now());
      ear.on('message', onPacket);
      const drops0 = udpDrops(earPort);
      const load0 = loadavg()[0];
      const ended0 = callees.ended;
      callees.peak = 0;
      const phones = Array.from({ length: calls }, () => number(next++));
      const started: Started[] = [];
      const startOne = async (phone: string) => {
        const sentAt = performance.now();
        const res = await fetch(`${o.apiUrl}/otp/v1/verifications`, { method: 'POST', headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ phone, code_length: 4 }) });
        const body = (await res.json().catch(() => ({}))) as { id?: string };
        started.push({ phone, id: body.id, sentAt, answeredAt: performance.now(), status: res.status });
      };
      if (paced) {
        // The application's users arriving: one start every 1/RATE s, each sent on time whatever the answers.
        const t0 = performance.now();
        await Promise.all(phones.map(async (phone, k) => {
          await new Promise((r) => setTimeout(r, Math.max(0, t0 + (k * 1000) / RATE - performance.now())));
          await startOne(phone);
        }));
      } else {
        // As fast as one application can: CONCURRENCY requests in flight, each number once.
        let i = 0;
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, calls) }, async () => {
          while (i < phones.length) await startOne(phones[i++]);
        }));
      }
      const ok = started.filter((s) => s.status === 201);
      const startWall = (Math.max(...started.map((s) => s.answeredAt)) - Math.min(...started.map((s) => s.sentAt))) / 1000;
      // Every call said its code and hung up (a call takes ~15 s), or two minutes passed.
      for (const until = Date.now() + 120_000; callees.ended - ended0 < ok.length && Date.now() < until; ) await new Promise((r) => setTimeout(r, 250));
      await new Promise((r) => setTimeout(r, 300)); // the last frames in flight
      ear.off('message', onPacket);
      const earDrops = udpDrops(earPort) - drops0;

      const rang = ok.map((s) => ({ s, at: callees.invitedAt(s.phone) })).filter((x) => x.at !== undefined);
      const toRing = rang.map((x) => x.at! - x.s.sentAt);
      const statuses = new Map<string, number>();
      for (const s of ok) {
        const res = await fetch(`${o.apiUrl}/otp/v1/verifications/${s.id}`, { headers: { authorization: `Bearer ${key.secret}` } });
        const status = res.ok ? ((await res.json()) as { status: string }).status : `HTTP ${res.status}`;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      const completed = statuses.get('completed') ?? 0;
      const latency = ok.map((s) => s.answeredAt - s.sentAt);
      const refused = started.length - ok.length;
      const how = paced ? `${calls} verifications started at ${RATE}/s` : `a burst of ${calls} starts, ${Math.min(CONCURRENCY, calls)} requests at a time`;
      rows.push(figure(
        `Voice-OTP: ${how}`,
        `${(ok.length / startWall).toFixed(0)} starts/s (${ok.length} of ${calls} answered 201${refused ? `, ${refused} refused: ${[...new Set(started.filter((s) => s.status !== 201).map((s) => s.status))].join(', ')}` : ''}); answer p50 ${pct(latency, 50).toFixed(0)} / p99 ${pct(latency, 99).toFixed(0)} ms`,
        '—',
        !ok.length,
        'no verification was started',
      ));
      rows.push(figure(
        `Voice-OTP (${how}): start → the callee's phone rings (the INVITE at the carrier; p50 / p99)`,
        `${toRing.length ? `${pct(toRing, 50).toFixed(0)} / ${pct(toRing, 99).toFixed(0)} ms` : '—'} (${rang.length} of ${ok.length} rang)`,
        paced ? '≤ 1000 ms (p99)' : '—',
        !rang.length,
        'no callee was called',
      ));
      const j = judge(streams);
      const said = [...statuses].map(([k, n]) => `${n} ${k}`).join(', ');
      rows.push(figure(
        `Voice-OTP (${how}): the calls saying their codes`,
        `${callees.peak} talking at once; ${streams.size} streams heard, ${j.short} of ${j.realTime} frames lost (${((j.short / (j.realTime || 1)) * 100).toFixed(2)} %; by RTP timestamps ${j.gaps}${earDrops ? `; ${earDrops} dropped by the bench's own socket` : ''}); the API reads ${said || 'nothing'}; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
        paced ? `${calls} at once, 0 frames lost` : '0 frames lost',
        !streams.size || !j.received || !completed,
        !streams.size || !j.received ? 'no stream heard' : `no verification completed (${said})`,
      ));
    }
  } finally {
    callees.close();
    ear.close();
  }
  return rows;
}
