import { planCall } from '../routing';
import { audio, dest, extension, inbound, inboundCall, ivr, liveState, number, pbxConfig, queue } from '@tongdai/testkit/routing-factory';
import { continuationPlan, Continuations, mediaStepOf } from './continuation';

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

  it('tokens are used once and lapse', () => {
    const c = new Continuations();
    const plan = { ...ivrPlan, steps: [] };
    const token = c.add({ parentCallId: 'a', tenantId: 1, maDn: 'demo', plan });
    expect(token).toMatch(/^c[0-9a-f]{24}$/);
    expect(c.take(token)?.parentCallId).toBe('a');
    expect(c.take(token)).toBeNull();
    const old = c.add({ parentCallId: 'b', tenantId: 1, maDn: 'demo', plan }, -1);
    expect(c.take(old)).toBeNull();
  });
});
