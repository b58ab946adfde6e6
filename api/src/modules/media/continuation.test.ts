import { planCall } from '../routing';
import { audio, dest, extension, inbound, inboundCall, ivr, liveState, number, pbxConfig, queue, ringGroup } from '@tongdai/testkit/routing-factory';
import type { MediaChoice, PbxConfig } from '@tongdai/contracts';
import type { RoutingPlan } from '../routing';
import { continuationPlan, Continuations, csatLeg, mediaStepOf, sessionMayRate } from './continuation';

const DID = '02873000001';
const config = pbxConfig({
  extensions: [extension('101'), extension('102'), extension('103')],
  numbers: [number(1, DID), number(2, '02873000002')],
  ivrs: [
    ivr(7, {
      greeting_id: 3,
      entries: [{ digit: '1', destination: dest('direct', '101') }, { digit: '2', destination: dest('queue', 9) }],
      direct_dial: true,
      timeout_destination: dest('direct', '102'),
      invalid_destination: null,
    }),
  ],
  queues: [queue(9, ['101', '102', '103'], { strategy: 'linear', agent_timeout: 12, timeout_destination: dest('ivr', 7), moh_class: 'vui' })],
  inbounds: [inbound(1, DID, dest('ivr', 7)), inbound(2, '02873000002', dest('queue', 9))],
  audio: [audio(3), { ...audio(4, 'moh'), moh_class: 'vui' }, { ...audio(5, 'moh'), moh_class: 'default' }],
});
const state = liveState({ registered: ['101', '102', '103'], busy: ['102'] });
const call = inboundCall('0901000001', DID);
const ivrPlan = planCall(config, call, state);

describe('media worker continuations', () => {
  it('tells the worker what an IVR step needs, without the destinations', () => {
    expect(mediaStepOf(ivrPlan.steps[0], config)).toEqual({ kind: 'ivr', ivrId: 7, greetingId: 3, timeout: 5, retries: 3, entries: [{ digit: '1' }, { digit: '2' }], direct_dial: true });
    const q = planCall(config, inboundCall('0901000001', '02873000002'), state);
    expect(mediaStepOf(q.steps[0], config)).toEqual({ kind: 'queue', queueId: 9, join_greeting_id: null, moh_audio_ids: [4], max_wait: 300, agent_timeout: 12 });
  });

  it('a digit goes to its entry; a dialled extension goes direct; anything else is invalid', () => {
    const one = continuationPlan(config, ivrPlan, 0, { kind: 'digits', digits: '1' }, call, state);
    expect(one !== 'invalid' && one?.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '101' }] });
    const direct = continuationPlan(config, ivrPlan, 0, { kind: 'digits', digits: '103' }, call, state);
    expect(direct !== 'invalid' && direct?.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '103' }] });
    expect(continuationPlan(config, ivrPlan, 0, { kind: 'digits', digits: '9' }, call, state)).toBe('invalid');
    expect(continuationPlan(config, ivrPlan, 0, { kind: 'digits', digits: '555' }, call, state)).toBe('invalid');
  });

  it('timeout and invalid follow their destinations; an empty one ends the call', () => {
    // 102 is busy: the timeout destination (direct 102) has no voicemail → busy.
    const timeout = continuationPlan(config, ivrPlan, 0, { kind: 'timeout' }, call, state);
    expect(timeout !== 'invalid' && timeout?.steps[0]).toMatchObject({ kind: 'reject', code: 486 });
    expect(continuationPlan(config, ivrPlan, 0, { kind: 'invalid' }, call, state)).toBeNull();
  });

  it('a queue rings its free agents in its order, each for the agent timeout; nobody free → nothing to dial', () => {
    const qPlan = planCall(config, inboundCall('0901000001', '02873000002'), state);
    const ring = continuationPlan(config, qPlan, 0, { kind: 'queue_agents' }, call, state);
    expect(ring !== 'invalid' && ring?.steps).toEqual([
      expect.objectContaining({ kind: 'ring', mode: 'serial', targets: [{ extension: '101', timeout: 12 }, { extension: '103', timeout: 12 }], timeout: 24 }),
    ]);
    expect(continuationPlan(config, qPlan, 0, { kind: 'queue_agents' }, call, liveState({ registered: ['101'], busy: ['101'] }))).toBeNull();
    const out = continuationPlan(config, qPlan, 0, { kind: 'queue_timeout' }, call, state);
    expect(out !== 'invalid' && out?.steps[0]).toMatchObject({ kind: 'ivr', ivrId: 7 });
  });

  it('tokens are used once and lapse', async () => {
    const c = new Continuations();
    const plan = { ...ivrPlan, steps: [] };
    const token = await c.add({ parentCallId: 'a', tenantId: 1, maDn: 'demo', plan });
    expect(token).toMatch(/^c[0-9a-f]{24}$/);
    expect((await c.take(token))?.parentCallId).toBe('a');
    expect(await c.take(token)).toBeNull();
    const old = await c.add({ parentCallId: 'b', tenantId: 1, maDn: 'demo', plan }, -1);
    expect(await c.take(old)).toBeNull();
  });
});

describe("post-call CSAT: which leg the worker rates (issue 34, ADR 0056)", () => {
  const DIDS = { ext: '02873000011', ivr: '02873000012', queue: '02873000013', plain: '02873000014', group: '02873000015' };
  const c: PbxConfig = pbxConfig({
    extensions: [extension('101'), extension('102')],
    numbers: Object.values(DIDS).map((d, i) => number(i + 1, d)),
    ivrs: [ivr(7, { entries: [{ digit: '1', destination: dest('direct', '101') }, { digit: '2', destination: dest('queue', 9) }, { digit: '3', destination: dest('queue', 8) }] })],
    queues: [queue(9, ['102'], { csat: true }), queue(8, ['102'])],
    // A group that falls to the asking queue when nobody in it answers.
    ringGroups: [ringGroup(3, ['101'], { destination: dest('queue', 9) })],
    inbounds: [
      inbound(1, DIDS.ext, dest('direct', '101'), '', { csat: true }),
      inbound(2, DIDS.ivr, dest('ivr', 7), '', { csat: true }),
      inbound(3, DIDS.queue, dest('queue', 8), '', { csat: true }),
      inbound(4, DIDS.plain, dest('ivr', 7)),
      inbound(5, DIDS.group, dest('group', 3), '', { csat: true }),
    ],
  });
  const live = liveState({ registered: ['101', '102'] });
  const planOf = (did: string) => planCall(c, inboundCall('0901000001', did), live);
  const leg = (p: RoutingPlan, choice: MediaChoice) => {
    const next = continuationPlan(c, p, 0, choice, inboundCall('0901000001', p.did ?? ''), live);
    if (!next || next === 'invalid') throw new Error('no continuation');
    return { next, csat: csatLeg(c, p, 0, choice, next) };
  };

  it("the rest of the plan after a route's CSAT bridge is rated; a bridge without it is not", () => {
    const p = planOf(DIDS.ext);
    expect(p.steps[0]).toMatchObject({ kind: 'bridge', csat: true });
    expect(leg(p, { kind: 'next' }).csat).toBe(true);
    expect(sessionMayRate(c, p, 0)).toBe(true);
    const recordedOnly = { ...p, steps: [{ kind: 'bridge' as const }, ...p.steps.slice(1)] };
    expect(csatLeg(c, recordedOnly, 0, { kind: 'next' }, leg(p, { kind: 'next' }).next)).toBe(false);
    expect(sessionMayRate(c, recordedOnly, 0)).toBe(false);
  });

  it("an IVR's way on to an extension is rated for a route that asks, not for one that does not; to a queue, the queue decides", () => {
    const p = planOf(DIDS.ivr);
    expect(leg(p, { kind: 'digits', digits: '1' }).csat).toBe(true);
    expect(sessionMayRate(c, p, 0)).toBe(true);
    expect(leg(planOf(DIDS.plain), { kind: 'digits', digits: '1' }).csat).toBe(false);
    expect(sessionMayRate(c, planOf(DIDS.plain), 0)).toBe(false);
    // To a queue: not the IVR's leg (the queue's own worker asks, or not).
    expect(leg(p, { kind: 'digits', digits: '2' }).csat).toBe(false);
    expect(leg(p, { kind: 'digits', digits: '3' }).csat).toBe(false);
  });

  it("a queue the route sends callers to keeps its own setting: a route's CSAT does not make it ask", () => {
    const p = planOf(DIDS.queue);
    expect(p.steps[0].kind).toBe('queue');
    expect(leg(p, { kind: 'queue_agents' }).csat).toBe(false);
    expect(sessionMayRate(c, p, 0)).toBe(false);
  });

  it('a queue in a leg a worker already rates (a group falling to it) does not ask again: one question per call', () => {
    const p = planOf(DIDS.group);
    expect(p.steps.map((s) => s.kind)).toEqual(['bridge', 'ring', 'queue']);
    const rest = leg(p, { kind: 'next' });
    expect(rest.csat).toBe(true);
    // The leg's plan as Kamailio gets it (media.routes marks it csatAbove): its queue step, at the worker it reaches.
    const legPlan: RoutingPlan = { ...rest.next, csatAbove: true };
    const at = legPlan.steps.findIndex((s) => s.kind === 'queue');
    expect(csatLeg(c, legPlan, at, { kind: 'queue_agents' }, rest.next)).toBe(false);
    expect(sessionMayRate(c, legPlan, at)).toBe(false);
    // The same queue reached straight: it asks.
    expect(csatLeg(c, rest.next, at, { kind: 'queue_agents' }, rest.next)).toBe(true);
  });
});
