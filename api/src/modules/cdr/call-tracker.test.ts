import type { RoutingPlan } from '../routing';
import { CallTracker, type CallEvent, type CallStart, type QueueAgentEvent } from './call-tracker';
import type { CdrRow } from './cdr';
import { toKamailioPlan } from '../kamailio/kamailio-plan';

const group = { type: 'group' as const, id: '7', name: 'Kinh doanh' };
const inboundPlan: RoutingPlan = {
  direction: 'inbound',
  from: '0901234567',
  to: '02873000001',
  did: '02873000001',
  route: [{ type: 'inbound', id: '1', name: '02873000001' }, group],
  interactive: false,
  steps: [
    { kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }, { extension: '102', timeout: 20 }], timeout: 20, source: group },
    { kind: 'voicemail', mailbox: 'group-7', source: group },
  ],
};

function setup() {
  const rows: CdrRow[] = [];
  const events: CallEvent[] = [];
  const tracker = new CallTracker((r) => rows.push(r));
  tracker.events.on('call', (e: CallEvent) => events.push(e));
  const start = (o: Partial<CallStart> = {}) => {
    const plan = o.plan ?? inboundPlan;
    tracker.start({
      callId: 'c1',
      tenantId: 1,
      caller: plan.from,
      callee: plan.to,
      callerExtension: null,
      plan,
      kamailio: toKamailioPlan(plan, 'demo.tongdai.local', {}),
      startedAt: new Date('2024-06-10T02:00:00Z'),
      ...o,
    });
  };
  return { rows, events, tracker, start };
}

const VIETTEL = { id: 5, tenantId: 1, name: 'viettel', host: '127.0.0.1', port: 5090, transport: 'udp' as const, callerIdFormat: 'national' as const, maxChannels: 30, enabled: true, address: '127.0.0.1' };

describe('CallTracker', () => {
  it('records an answered call: who answered, in which ring group, duration and billable seconds', () => {
    const { rows, events, tracker, start } = setup();
    start();
    tracker.answered('c1', '102', 0, new Date('2024-06-10T02:00:05Z'));
    expect(tracker.busy(1)).toEqual(new Set(['102']));
    tracker.ended('c1', new Date('2024-06-10T02:01:05Z'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ disposition: 'ANSWERED', extension: '102', ring_group_id: 7, duration: 65, billsec: 60, sip_code: 200, did: '02873000001' });
    expect(events.map((e) => e.type)).toEqual(['ringing', 'answered', 'ended']);
    expect(events[0]).toMatchObject({ extensions: ['101', '102'] });
    expect(tracker.busy(1).size).toBe(0);
    expect(tracker.recentAgent(1, ['0901234567'])?.extension).toBe('102');
  });

  it("names the hotline a call out presented (the rule's caller id) as its did, and the trunk", () => {
    const out = { type: 'outbound' as const, id: '3', name: 'Di động' };
    const plan = (callerId: string | null): RoutingPlan => ({
      direction: 'outbound', from: '101', to: '0912345678', did: null, route: [out], interactive: false,
      steps: [{ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: 'viettel', callerId, ruleId: 3, source: out }],
    });
    // The record names the hotline in national form, whatever form the switchboard sends its carrier.
    for (const [callerId, did, format] of [['02873000001', '02873000001', 'national'], ['842873000001', '02873000001', 'e164'], [null, null, 'national']] as const) {
      const { rows, tracker, start } = setup();
      const kamailio = toKamailioPlan(plan(callerId), 'demo.tongdai.local', { switchboards: [{ ...VIETTEL, callerIdFormat: format }], ruleSwitchboards: () => [VIETTEL.id] });
      if (callerId) expect(kamailio.steps[0]).toMatchObject({ from: format === 'e164' ? '+842873000001' : '02873000001' });
      start({ plan: plan(callerId), kamailio });
      tracker.answered('c1', null, 0, new Date('2024-06-10T02:00:03Z'));
      tracker.ended('c1', new Date('2024-06-10T02:00:13Z'));
      expect(rows[0]).toMatchObject({ direction: 'outbound', trunk: 'viettel', did, billsec: 10 });
    }
    // Recorded (issue 30): the worker bridges, the carrier is reached by the leg it placed — the
    // call still names the hotline and the trunk, answered or not.
    for (const answered of [true, false]) {
      const { rows, tracker, start } = setup();
      const trunks = { switchboards: [VIETTEL], ruleSwitchboards: () => [VIETTEL.id] };
      const recorded: RoutingPlan = { ...plan('02873000001'), steps: [{ kind: 'bridge', source: out }, ...plan('02873000001').steps] };
      start({ plan: recorded, kamailio: toKamailioPlan(recorded, 'demo.tongdai.local', trunks), callerExtension: '101' });
      const rest: RoutingPlan = { ...plan('02873000001'), route: [] };
      start({ callId: 'leg', parentCallId: 'c1', plan: rest, kamailio: toKamailioPlan(rest, 'demo.tongdai.local', trunks) });
      if (answered) {
        tracker.answered('leg', null, 0, new Date('2024-06-10T02:00:03Z'));
        tracker.answered('c1', null, 0, new Date('2024-06-10T02:00:03Z'));
        tracker.ended('leg', new Date('2024-06-10T02:00:13Z'));
        tracker.ended('c1', new Date('2024-06-10T02:00:13Z'));
      } else {
        tracker.failed('leg', 486, 0, new Date('2024-06-10T02:00:03Z'));
        tracker.failed('c1', 486, 0, new Date('2024-06-10T02:00:03Z'));
      }
      expect(rows[0]).toMatchObject({ direction: 'outbound', trunk: 'viettel', did: '02873000001', disposition: answered ? 'ANSWERED' : 'BUSY', billsec: answered ? 10 : 0 });
    }
  });

  it('maps the final status of an unanswered call: busy, no answer, failed, media not available', () => {
    for (const [code, step, disposition] of [
      [486, 0, 'BUSY'],
      [487, 0, 'NO ANSWER'],
      [408, 0, 'NO ANSWER'],
      [503, 0, 'FAILED'],
      [480, 1, 'NO ANSWER'],
    ] as const) {
      const { rows, tracker, start } = setup();
      start();
      tracker.failed('c1', code, step, new Date('2024-06-10T02:00:20Z'));
      expect(rows[0]).toMatchObject({ disposition, sip_code: code, billsec: 0, duration: 20, extension: null });
      if (step === 1) expect(rows[0].reason).toMatch(/âm thanh/);
    }
  });

  it("names the one extension an unanswered call rang (a missed direct call), never a group's or an answered one's", () => {
    const ring = (...exts: string[]) => ({ kind: 'ring' as const, mode: 'parallel' as const, targets: exts.map((extension) => ({ extension, timeout: 20 })), timeout: 20, source: group });
    const cases: [RoutingPlan['steps'], 'NO ANSWER' | 'ANSWERED', string | null][] = [
      [[ring('101')], 'NO ANSWER', '101'],
      [[ring('101'), ring('101')], 'NO ANSWER', '101'],
      [[ring('101', '102')], 'NO ANSWER', null],
      [[ring('101'), ring('102')], 'NO ANSWER', null],
    ];
    for (const [steps, disposition, extension] of cases) {
      const { rows, tracker, start } = setup();
      const plan = { ...inboundPlan, steps } as RoutingPlan;
      start({ plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local') });
      tracker.failed('c1', 487, 0, new Date('2024-06-10T02:00:20Z'));
      expect(rows[0]).toMatchObject({ disposition, extension });
    }
    // Answered by the PBX (a voicemail after the ring time): nobody's miss, nobody's answer.
    const { rows, tracker, start } = setup();
    const plan = { ...inboundPlan, steps: [ring('101')] } as RoutingPlan;
    start({ plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local') });
    tracker.answered('c1', null, 0, new Date('2024-06-10T02:00:03Z'));
    tracker.ended('c1', new Date('2024-06-10T02:00:13Z'));
    expect(rows[0]).toMatchObject({ disposition: 'ANSWERED', extension: null });
  });

  it('writes a refused call at once, BLOCKED for a blocked number, with the engine message', () => {
    const { rows, tracker, start } = setup();
    start({ plan: { ...inboundPlan, route: [], steps: [{ kind: 'reject', code: 603, reason: 'blocked_in', message: 'Số gọi đến nằm trong danh sách chặn' }] } });
    expect(rows[0]).toMatchObject({ disposition: 'BLOCKED', sip_code: 603, reason: 'Số gọi đến nằm trong danh sách chặn', duration: 0 });
    expect(tracker.get('c1')).toBeUndefined();
  });

  it('keeps the plan per Call-ID and marks a calling extension busy until the call ends', () => {
    const { tracker, start } = setup();
    start({ callerExtension: '101' });
    expect(tracker.get('c1')?.kamailio.steps[0]).toMatchObject({ do: 'ring' });
    expect(tracker.busy(1)).toEqual(new Set(['101']));
    tracker.failed('c1', 487, 0);
    expect(tracker.busy(1).size).toBe(0);
  });

  it('ends calls whose end never came (Kamailio restarted)', () => {
    const { rows, tracker, start } = setup();
    start();
    tracker.sweep(new Date('2024-06-10T02:30:00Z').getTime());
    expect(rows[0]).toMatchObject({ disposition: 'FAILED' });
  });

  it("reports a queue agent's answer and the end of that call (the queue strategies' memory); other calls report nothing", () => {
    const { tracker, start } = setup();
    const seen: QueueAgentEvent[] = [];
    tracker.events.on('queue-agent', (e: QueueAgentEvent) => seen.push(e));
    // A ring group's call: not a queue's.
    start();
    tracker.answered('c1', '101', 0, new Date('2024-06-10T02:00:03Z'));
    tracker.ended('c1', new Date('2024-06-10T02:00:09Z'));
    expect(seen).toEqual([]);
    // The leg the media worker placed for a queue's caller: its agents ring from the queue's step.
    const queue = { type: 'queue' as const, id: '5', name: 'Hỗ trợ' };
    const agentsLeg: RoutingPlan = { ...inboundPlan, route: [], steps: [{ kind: 'ring', mode: 'serial', targets: [{ extension: '102', timeout: 15 }, { extension: '101', timeout: 15 }], timeout: 30, source: queue }] };
    start({ callId: 'q1', plan: agentsLeg });
    tracker.answered('q1', '101', 0, new Date('2024-06-10T02:01:00Z'));
    tracker.ended('q1', new Date('2024-06-10T02:02:30Z'));
    expect(seen).toEqual([
      { tenantId: 1, queueId: 5, extension: '101', answeredAt: new Date('2024-06-10T02:01:00Z'), endedAt: null },
      { tenantId: 1, queueId: 5, extension: '101', answeredAt: new Date('2024-06-10T02:01:00Z'), endedAt: new Date('2024-06-10T02:02:30Z') },
    ]);
  });

  describe('what an answered call was (issue 30, ADR 0045)', () => {
    const at = (s: number) => new Date(Date.parse('2024-06-10T02:00:00Z') + s * 1000);
    const ext102 = { type: 'direct' as const, id: '102', name: '102' };
    const direct: RoutingPlan = {
      direction: 'internal', from: '101', to: '102', did: null, route: [], interactive: false,
      steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: '102', timeout: 20 }], timeout: 20, source: ext102 }, { kind: 'voicemail', mailbox: '102', source: ext102 }],
    };
    const queue = { type: 'queue' as const, id: '5', name: 'Hỗ trợ' };
    const ivr = { type: 'ivr' as const, id: '3', name: 'Menu' };
    const ivrStep = { kind: 'ivr' as const, ivrId: 3, greetingId: null, timeout: 5, retries: 1, entries: [], direct_dial: false, invalid_destination: null, timeout_destination: null, source: ivr };
    const queueStep = { kind: 'queue' as const, queueId: 5, join_greeting_id: null, moh_class: '', max_wait: 60, agent_timeout: 15, ring: 'serial' as const, strategy: 'linear' as const, memoryKey: '5', agents: [], timeout_destination: null, source: queue };

    it("a direct call 102 lets ring out to its mailbox: VOICEMAIL, 102's call (not its answer), no talk time of 102's", () => {
      const { rows, events, tracker, start } = setup();
      start({ plan: direct, callerExtension: '101' });
      tracker.answered('c1', null, 1, at(20));
      tracker.ended('c1', at(35));
      expect(rows[0]).toMatchObject({ disposition: 'VOICEMAIL', extension: '102', billsec: 15 });
      expect(events.at(-1)).toMatchObject({ type: 'ended', disposition: 'VOICEMAIL', extension: null });
    });

    it('a recorded call (the worker bridges) whose leg ends in the mailbox: VOICEMAIL, not answered by anyone', () => {
      const { rows, tracker, start } = setup();
      const recorded: RoutingPlan = { ...direct, steps: [{ kind: 'bridge' }, ...direct.steps] };
      start({ plan: recorded, callerExtension: '101' });
      start({ callId: 'leg', parentCallId: 'c1', plan: { ...direct, route: [] }, callerExtension: null });
      tracker.answered('leg', null, 1, at(20));
      tracker.answered('c1', null, 0, at(20));
      tracker.ended('leg', at(30));
      tracker.ended('c1', at(30));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ disposition: 'VOICEMAIL', extension: '102', answered_at: at(20) });
    });

    it("a queue's caller answered by the worker at once: the answer time is the agent's; gave up waiting: NO ANSWER", () => {
      const { rows, tracker, start } = setup();
      const inQueue: RoutingPlan = { ...inboundPlan, steps: [queueStep] };
      start({ plan: inQueue });
      tracker.answered('c1', null, 0, at(1));
      start({ callId: 'agents', parentCallId: 'c1', plan: { ...inboundPlan, route: [], steps: [{ kind: 'ring', mode: 'serial', targets: [{ extension: '102', timeout: 15 }], timeout: 15, source: queue }] } });
      tracker.answered('agents', '102', 0, at(40));
      tracker.ended('agents', at(100));
      tracker.ended('c1', at(100));
      expect(rows[0]).toMatchObject({ disposition: 'ANSWERED', extension: '102', answered_at: at(40), billsec: 60, queue_id: 5 });

      start({ callId: 'c2', plan: inQueue });
      tracker.answered('c2', null, 0, at(1));
      tracker.ended('c2', at(50));
      expect(rows[1]).toMatchObject({ call_id: 'c2', disposition: 'NO ANSWER', extension: null });
    });

    it('an IVR the caller leaves: AUTO; its choice rang 101 and nobody answered: NO ANSWER; an announcement: AUTO', () => {
      const { rows, tracker, start } = setup();
      const menu: RoutingPlan = { ...inboundPlan, steps: [ivrStep] };
      start({ plan: menu });
      tracker.answered('c1', null, 0, at(1));
      tracker.ended('c1', at(9));
      expect(rows[0]).toMatchObject({ disposition: 'AUTO', extension: null, billsec: 8 });

      start({ callId: 'c2', plan: menu });
      tracker.answered('c2', null, 0, at(1));
      start({ callId: 'to101', parentCallId: 'c2', plan: { ...inboundPlan, route: [], steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }], timeout: 20, source: ivr }] } });
      tracker.failed('to101', 480, 0, at(25));
      tracker.ended('c2', at(26));
      expect(rows[1]).toMatchObject({ call_id: 'c2', disposition: 'NO ANSWER' });

      start({ callId: 'c3', plan: { ...inboundPlan, steps: [{ kind: 'play', audioIds: [1], source: { type: 'msg' as const, id: '1', name: 'Thông báo' } }] } });
      tracker.answered('c3', null, 0, at(1));
      tracker.ended('c3', at(6));
      expect(rows[2]).toMatchObject({ call_id: 'c3', disposition: 'AUTO' });
    });
  });
});
