import type { RoutingPlan } from '../routing';
import { CallTracker } from '../cdr/call-tracker';
import { toKamailioPlan } from '../kamailio/kamailio-plan';
import { memoryHub, type Audience, type RealtimeEvent } from './call-event-hub';
import { LiveFeed } from './live-feed';
import { memoryLiveStore } from './live-state';

const queueNode = { type: 'queue' as const, id: '5', name: 'Chăm sóc khách hàng' };
const queuePlan: RoutingPlan = {
  direction: 'inbound', from: '0901234567', to: '02873000001', did: '02873000001', interactive: true,
  route: [{ type: 'inbound', id: '1', name: '02873000001' }, queueNode],
  steps: [{
    kind: 'queue', queueId: 5, strategy: 'linear', ring: 'serial', agents: [{ extension: '102', state: 'available' }], agent_timeout: 10, max_wait: 60,
    moh_class: '', join_greeting_id: null, memoryKey: 'q5', timeout_destination: null, source: queueNode,
  }],
};
const agentNode = { type: 'extension' as const, id: '102', name: '102' };
const legPlan: RoutingPlan = {
  direction: 'inbound', from: '0901234567', to: '02873000001', did: '02873000001', interactive: false, route: [agentNode],
  steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: '102', timeout: 10 }], timeout: 10, source: agentNode }],
};

function setup() {
  let now = Date.parse('2024-06-10T02:00:00Z');
  const tracker = new CallTracker(() => undefined);
  const hub = memoryHub(memoryLiveStore(() => now));
  const heard: { e: RealtimeEvent; audience?: Audience }[] = [];
  hub.subscribe(1, (e, audience) => heard.push({ e, audience }));
  const feed = new LiveFeed(tracker, hub, () => now);
  const start = (callId: string, plan: RoutingPlan, parentCallId?: string) =>
    tracker.start({ callId, tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local', {}), startedAt: new Date(now), ...(parentCallId && { parentCallId }) });
  const calls = () => hub.live.calls(1);
  return { tracker, hub, heard, feed, start, calls, tick: (ms: number) => (now += ms), now: () => now };
}

describe('LiveFeed: the live state the wall reads', () => {
  it('a queue call: waiting (the media worker answering is nobody talking), an agent leg rings, the agent answers, the call ends', async () => {
    const { tracker, heard, feed, start, calls, tick, now } = setup();
    start('c1', queuePlan);
    tracker.answered('c1', null, 0); // the media worker plays music
    feed.queued('c1', 5, ['102']);
    const queuedAt = now();
    expect(await calls()).toMatchObject([{ call_id: 'c1', state: 'queued', queue_id: 5, queued_at: queuedAt, answered_at: null, extension: null }]);
    expect(heard.find((h) => h.e.type === 'queued')).toMatchObject({ e: { callId: 'c1', queueId: 5 }, audience: { extensions: [], queueAgents: ['102'] } });
    // Asked again after a round of agents: still waiting since the first time, no second event.
    tick(5000);
    feed.queued('c1', 5, ['102']);
    expect((await calls())[0].queued_at).toBe(queuedAt);
    expect(heard.filter((h) => h.e.type === 'queued')).toHaveLength(1);
    // The worker rings 102 on a leg of its own: the wall shows one call, ringing 102.
    start('leg1', legPlan, 'c1');
    expect(await calls()).toMatchObject([{ call_id: 'c1', state: 'queued', ringing: ['102'] }]);
    expect(heard.find((h) => h.e.type === 'ringing' && h.e.callId === 'leg1')?.audience).toEqual({ extensions: ['102'] });
    tick(2000);
    tracker.answered('leg1', '102', 0);
    const [talking] = await calls();
    expect(talking).toMatchObject({ state: 'talking', extension: '102', ringing: [], answered_at: now() });
    expect(talking.route.map((s) => s.name)).toEqual(['02873000001', 'Chăm sóc khách hàng', '102']);
    tracker.ended('leg1');
    tracker.ended('c1');
    expect(await calls()).toEqual([]);
    expect(heard.find((h) => h.e.type === 'ended')?.audience).toEqual({ extensions: ['102'], queueAgents: ['102'] });
  });

  it("a call taken over after a restart (the journal's) is talking since its real answer, not since the restart", async () => {
    const before = setup();
    before.start('c9', legPlan);
    before.tick(3000);
    const answeredAt = before.now();
    before.tracker.answered('c9', '102', 0, new Date(answeredAt));
    const journaled = JSON.parse(before.tracker.snapshot('c9')!);
    // The new process, 40 s later: the call comes back from the journal.
    const after = setup();
    after.tick(43_000);
    after.tracker.adopt(JSON.stringify(journaled));
    expect(await after.calls()).toMatchObject([{ call_id: 'c9', state: 'talking', extension: '102', answered_at: answeredAt, started_at: answeredAt - 3000 }]);
    expect(after.heard.find((h) => h.e.type === 'answered')?.e).toMatchObject({ callId: 'c9', at: answeredAt });
  });

  it('an agent leg that ends unanswered stops ringing on the wall; the caller still waits', async () => {
    const { tracker, feed, start, calls } = setup();
    start('c2', queuePlan);
    feed.queued('c2', 5, ['102']);
    start('leg2', legPlan, 'c2');
    tracker.failed('leg2', 487, 0);
    expect(await calls()).toMatchObject([{ call_id: 'c2', state: 'queued', ringing: [] }]);
  });

  it('a call out through a carrier, or a caller forwarded outside: talking once the party outside answers (nobody\'s extension does)', async () => {
    const { tracker, feed, start, calls, tick, now } = setup();
    const outNode = { type: 'outbound' as const, id: '1', name: 'Di động' };
    const plan: RoutingPlan = {
      direction: 'outbound', from: '101', to: '0912345678', did: null, interactive: false, route: [outNode],
      steps: [{ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: '', callerId: '02873000001', ruleId: 1, source: outNode }],
    };
    const trunks = {
      switchboards: [{ id: 1, tenantId: 1, name: 'Viettel', host: '10.0.0.5', port: 5060, transport: 'udp' as const, callerIdFormat: 'national' as const, maxChannels: 10, enabled: true, address: '10.0.0.5' }],
      ruleSwitchboards: () => [1],
    };
    tracker.start({ callId: 'c4', tenantId: 1, caller: '101', callee: plan.to, callerExtension: '101', plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local', trunks), startedAt: new Date(now()) });
    expect(await calls()).toMatchObject([{ call_id: 'c4', state: 'ringing', caller_extension: '101', answered_at: null }]);
    tick(3000);
    tracker.answered('c4', null, 0);
    expect(await calls()).toMatchObject([{ call_id: 'c4', state: 'talking', caller_extension: '101', extension: null, answered_at: now() }]);
    tracker.ended('c4');

    // A caller waiting in a queue, forwarded by the worker to a mobile (its leg through the carrier): talking once the mobile answers.
    start('c5', queuePlan);
    tracker.answered('c5', null, 0); // the queue's music
    feed.queued('c5', 5, ['102']);
    const forwardPlan: RoutingPlan = { ...plan, direction: 'inbound', from: '0901234567', to: '0912345678' };
    tracker.start({ callId: 'leg5', tenantId: 1, caller: '0901234567', callee: '0912345678', callerExtension: null, plan: forwardPlan, kamailio: toKamailioPlan(forwardPlan, 'demo.tongdai.local', trunks), startedAt: new Date(now()), parentCallId: 'c5' });
    expect(await calls()).toMatchObject([{ call_id: 'c5', state: 'queued' }]);
    tick(2000);
    tracker.answered('leg5', null, 0);
    expect(await calls()).toMatchObject([{ call_id: 'c5', state: 'talking', extension: null, answered_at: now() }]);
  });

  it('a call the server placed for no call followed here (voice-OTP: its parent is the verification) leaves the wall when it ends', async () => {
    const { tracker, heard, calls, tick } = setup();
    const plan: RoutingPlan = {
      direction: 'outbound', from: '02873009898', to: '0912345678', did: null, interactive: false, route: [],
      steps: [{ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: '', callerId: '02873009898', ruleId: 1, source: { type: 'outbound', id: '1', name: 'Di động' } }],
    };
    const trunks = {
      switchboards: [{ id: 1, tenantId: 1, name: 'Viettel', host: '10.0.0.5', port: 5060, transport: 'udp' as const, callerIdFormat: 'national' as const, maxChannels: 10, enabled: true, address: '10.0.0.5' }],
      ruleSwitchboards: () => [1],
    };
    const otp = (callId: string) => tracker.start({ callId, tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local', trunks), startedAt: new Date(), parentCallId: `otp-${callId}` });
    // Answered by the callee, then hung up (by either side): talking, then gone.
    otp('a1@tongdai-media-otp');
    expect(await calls()).toMatchObject([{ call_id: 'a1@tongdai-media-otp', state: 'ringing', direction: 'outbound' }]);
    tick(2000);
    tracker.answered('a1@tongdai-media-otp', null, 0);
    expect(await calls()).toMatchObject([{ call_id: 'a1@tongdai-media-otp', state: 'talking' }]);
    tracker.ended('a1@tongdai-media-otp');
    await new Promise((r) => setImmediate(r));
    expect(await calls()).toEqual([]);
    expect(heard.filter((h) => 'callId' in h.e && h.e.callId === 'a1@tongdai-media-otp').map((h) => h.e.type)).toEqual(['ringing', 'answered', 'ended']);
    // Busy, or never answered: no ghost ringing either.
    otp('b1@tongdai-media-otp');
    tracker.failed('b1@tongdai-media-otp', 486, 0);
    await new Promise((r) => setImmediate(r));
    expect(await calls()).toEqual([]);
    expect(heard.find((h) => h.e.type === 'ended' && 'callId' in h.e && h.e.callId === 'b1@tongdai-media-otp')?.e).toMatchObject({ disposition: 'BUSY' });
  });

  it('an extension\'s call refused at once (never rang) still reaches that extension\'s socket, and never the wall\'s list', async () => {
    const { tracker, heard, calls } = setup();
    const plan: RoutingPlan = {
      direction: 'outbound', from: '101', to: '0012345678', did: null, interactive: false, route: [],
      steps: [{ kind: 'reject', code: 403, reason: 'international', message: 'Không được gọi quốc tế' }],
    };
    tracker.start({ callId: 'c3', tenantId: 1, caller: '101', callee: plan.to, callerExtension: '101', plan, kamailio: toKamailioPlan(plan, 'demo.tongdai.local', {}), startedAt: new Date() });
    // "ended" waits for the call's record to be written (here: at once).
    await new Promise((r) => setImmediate(r));
    expect(heard.map((h) => [h.e.type, h.audience])).toEqual([['ended', { extensions: ['101'] }]]);
    expect(await calls()).toEqual([]);
  });

  it('the hub numbers each tenant\'s events in the order it delivers them; its position is the last number', async () => {
    const { hub, heard, feed } = setup();
    expect(await hub.position(1)).toBe(0);
    feed.registration(1, '101', true);
    feed.registration(2, '201', true);
    feed.registration(1, '101', false);
    expect(heard.map((h) => h.e.seq)).toEqual([1, 2]);
    expect(await hub.position(1)).toBe(2);
    expect(await hub.position(2)).toBe(1);
  });

  it('registrations: announced as the store reports a change, each to the extension\'s own audience', () => {
    const { heard, feed } = setup();
    feed.registration(1, '101', true);
    feed.registration(1, '101', false);
    expect(heard).toMatchObject([
      { e: { type: 'registration', extension: '101', registered: true }, audience: { extensions: ['101'] } },
      { e: { type: 'registration', extension: '101', registered: false }, audience: { extensions: ['101'] } },
    ]);
  });
});
