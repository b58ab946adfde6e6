// A realistic tenant for the routing-plan bench: 200 extensions, 50 DIDs with 150 inbound routes
// (caller patterns), 10 IVRs, 10 time conditions over time groups of several ranges, 10 ring groups,
// 5 queues of 20 agents, 5 last-call rules, 50 blocked numbers, 20 outbound rules; plus live state
// and a stream of calls mixing inbound, internal and outbound.
import type { Destination, PbxConfig, QueueStrategy, RingStrategy } from '@tongdai/contracts';
import type { CallInput, LiveState } from '@tongdai/api/routing';
import {
  audio,
  blocked,
  dest,
  extension,
  inbound,
  ivr,
  lastCall,
  liveState,
  notification,
  number,
  outboundRule,
  pbxConfig,
  queue,
  range,
  ringGroup,
  seeded,
  timeCondition,
  timeGroup,
} from '@tongdai/testkit/routing-factory';

const rnd = seeded(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
const exts = Array.from({ length: 200 }, (_, i) => String(101 + i));
const dids = Array.from({ length: 50 }, (_, i) => `028730${String(i).padStart(5, '0')}`);
const mobile = () => `09${digits(8)}`;

export function benchConfig(): PbxConfig {
  const ringStrategies: RingStrategy[] = ['ringall', 'hunt', 'memoryhunt', 'random'];
  const queueStrategies: QueueStrategy[] = ['ringall', 'leastrecent', 'fewestcalls', 'rrmemory', 'linear', 'random'];
  const ringGroups = Array.from({ length: 10 }, (_, i) =>
    ringGroup(i + 1, exts.slice(i * 8, i * 8 + 8), { strategy: ringStrategies[i % 4], destination: i % 2 ? dest('voicemaill', i + 1) : dest('queue', (i % 5) + 1) }),
  );
  const queues = Array.from({ length: 5 }, (_, i) =>
    queue(i + 1, exts.slice(80 + i * 20, 100 + i * 20), { strategy: queueStrategies[i % 6], join_greeting_id: 1, timeout_destination: dest('voicmail', exts[i]) }),
  );
  const timeGroups = Array.from({ length: 10 }, (_, i) =>
    timeGroup(i + 1, [
      range({ time_start: '08:00', time_end: '12:00', dow_start: 1, dow_end: 5 }),
      range({ time_start: '13:30', time_end: '17:30', dow_start: 1, dow_end: 5 }),
      range({ time_start: '08:00', time_end: '11:30', dow_start: 6 }),
      range({ dom_start: 1, dom_end: 1, month_start: 1, month_end: 1 }),
      range({ time_start: '22:00', time_end: '06:00', month_start: 11, month_end: 2, dow_start: 6, dow_end: 1 + (i % 3) }),
    ]),
  );
  const ivrs = Array.from({ length: 10 }, (_, i) =>
    ivr(i + 1, {
      greeting_id: 2,
      entries: [
        { digit: '1', destination: dest('group', (i % 10) + 1) },
        { digit: '2', destination: dest('queue', (i % 5) + 1) },
        { digit: '0', destination: dest('direct', exts[i]) },
        { digit: '9', destination: dest('ivr', i + 1) },
      ],
      timeout_destination: dest('queue', (i % 5) + 1),
      invalid_destination: dest('msg', (i % 10) + 1),
      direct_dial: true,
    }),
  );
  const timeConditions = Array.from({ length: 10 }, (_, i) => timeCondition(i + 1, i + 1, dest(i % 2 ? 'group' : 'queue', i % 2 ? i + 1 : (i % 5) + 1), dest('ivr', i + 1)));
  const lastCalls = Array.from({ length: 5 }, (_, i) => lastCall(i + 1, dest('time', i + 1)));
  const targets: Destination[] = [
    ...timeConditions.map((t) => dest('time', t.id)),
    ...lastCalls.map((l) => dest('lastcall', l.id)),
    ...ivrs.slice(0, 3).map((v) => dest('ivr', v.id)),
    ...ringGroups.slice(0, 3).map((g) => dest('group', g.id)),
    dest('direct', exts[5]),
  ];
  const inbounds = dids.flatMap((did, i) => [
    inbound(i * 3 + 1, did, pick(targets)),
    inbound(i * 3 + 2, did, pick(targets), `09${i % 10}XXXXXXX`),
    inbound(i * 3 + 3, did, pick(targets), `0[3-5]${i % 10}.`),
  ]);
  const outboundRules = Array.from({ length: 20 }, (_, i) =>
    outboundRule(i + 1, ['0[35789]XXXXXXXX', '02XXXXXXXXX', '9.', '00.', '1900XXXX', '1800XXXX', 'NXXXXXX'][i % 7], {
      priority: 100 - i,
      trunk: `trunk${i % 4}`,
      strip: i % 7 === 2 ? 1 : 0,
      allow_international: i % 7 === 3 && i > 10,
      allow_premium: i % 7 === 4 && i > 10,
    }),
  );
  return pbxConfig({
    extensions: exts.map((e, i) => extension(e, { voicemail: i % 3 === 0 })),
    numbers: dids.map((d, i) => number(i + 1, d)),
    inbounds,
    ringGroups,
    queues,
    ivrs,
    notifications: Array.from({ length: 10 }, (_, i) => notification(i + 1, 1, dest('group', i + 1))),
    timeGroups,
    timeConditions,
    lastCalls,
    outboundRules,
    blocked: [
      ...Array.from({ length: 35 }, (_, i) => blocked(i + 1, 'in', mobile())),
      ...Array.from({ length: 5 }, (_, i) => blocked(36 + i, 'in', `0${2 + i}9`, 'prefix')),
      ...Array.from({ length: 8 }, (_, i) => blocked(41 + i, 'out', mobile())),
      blocked(49, 'out', '0944', 'prefix'),
      blocked(50, 'out', '1900', 'prefix'),
    ],
    audio: [audio(1), audio(2), audio(3, 'moh')],
  });
}

const callers = Array.from({ length: 2000 }, () => (rnd() < 0.7 ? mobile() : `0${3 + Math.floor(rnd() * 3)}${digits(8)}`));

export function benchState(): LiveState {
  const registered = exts.filter(() => rnd() < 0.85);
  const last = Object.fromEntries(callers.filter(() => rnd() < 0.3).map((c) => [c, { extension: pick(exts), at: new Date(Date.now() - rnd() * 10 * 86_400_000) }]));
  // Every queue's agents' figures (queue_agent_stats, ADR 0039), and queue 4's last answering agent.
  const figures = () => Object.fromEntries(exts.map((e) => [e, { calls: Math.floor(rnd() * 50), lastCallAt: rnd() < 0.9 ? new Date(Date.now() - rnd() * 86_400_000) : null }]));
  const stats = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [i + 1, figures()]));
  return liveState({ registered, busy: registered.filter(() => rnd() < 0.2), last, stats, memory: { 'queue:4': exts[143] }, random: seeded(7) });
}

/** 60 % inbound, 20 % internal, 20 % outbound (some international / premium / blocked), over a week. */
export function benchCalls(n: number): CallInput[] {
  const week = 7 * 86_400_000;
  const start = Date.parse('2025-03-03T00:00:00+07:00');
  return Array.from({ length: n }, () => {
    const at = new Date(start + Math.floor(rnd() * week));
    const r = rnd();
    if (r < 0.6) return { from: pick(callers), to: pick(dids), direction: 'inbound', at };
    const ext = pick(exts);
    if (r < 0.8) return { from: ext, fromExtension: ext, to: pick(exts), direction: 'internal', at };
    const to = pick([mobile(), mobile(), `02${digits(9)}`, `9${mobile()}`, `00${digits(11)}`, `1900${digits(4)}`, `+84${digits(9)}`]);
    return { from: ext, fromExtension: ext, to, direction: 'outbound', at };
  });
}
