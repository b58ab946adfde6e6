import { planCall } from './plan';
import { recordsAtWorker, recordsContinuation } from './recording';
import { resolveDestination } from './expand';
import { dest, extension, extensionCall, inbound, inboundCall, liveState, number, outboundRule, pbxConfig, queue, switchboardRoute } from '@tongdai/testkit/routing-factory';
import type { PbxConfig, RecordingMode } from '@tongdai/contracts';
import { toKamailioPlan } from '../kamailio/kamailio-plan';

const DID = '02873000001';
const state = liveState({ registered: ['101', '102'] });

function config(tenant: RecordingMode | undefined, ext: Record<string, RecordingMode | null> = {}): PbxConfig {
  return pbxConfig({
    ...(tenant ? { recordingMode: tenant } : {}),
    extensions: ['101', '102'].map((e) => extension(e, { recording_mode: ext[e] ?? null })),
    numbers: [number(1, DID)],
    inbounds: [inbound(1, DID, dest('direct', '101'))],
    outboundRules: [outboundRule(1, '09XXXXXXXX', { switchboard_ids: [1] })],
    switchboards: [switchboardRoute(1)],
    queues: [queue(7, ['102'], { recording_mode: 'none' }), queue(8, ['102'])],
  });
}
const kinds = (c: PbxConfig, call: Parameters<typeof planCall>[1]) => planCall(c, call, state).steps.map((s) => s.kind);

describe('which calls are recorded (issue 16)', () => {
  it('nothing is recorded by default: the plan rings as before', () => {
    expect(kinds(config(undefined), inboundCall('0912345678', DID))).toEqual(['ring', 'hangup']);
  });

  it("the tenant's mode puts a bridge first for the calls in its direction", () => {
    expect(kinds(config('all'), inboundCall('0912345678', DID))).toEqual(['bridge', 'ring', 'hangup']);
    expect(kinds(config('inbound'), inboundCall('0912345678', DID))).toEqual(['bridge', 'ring', 'hangup']);
    expect(kinds(config('outbound'), inboundCall('0912345678', DID))).toEqual(['ring', 'hangup']);
    expect(kinds(config('outbound'), extensionCall('101', '0912345678'))[0]).toBe('bridge');
    expect(kinds(config('inbound'), extensionCall('101', '0912345678'))[0]).toBe('forward');
  });

  it("an extension's own mode wins over the tenant's, for the calls it makes and takes", () => {
    expect(kinds(config('all', { '101': 'none' }), inboundCall('0912345678', DID))).toEqual(['ring', 'hangup']);
    expect(kinds(config('none', { '101': 'inbound' }), inboundCall('0912345678', DID))[0]).toBe('bridge');
    expect(kinds(config('none', { '101': 'outbound' }), extensionCall('101', '0912345678'))[0]).toBe('bridge');
    // Internal: recorded when either party records.
    expect(kinds(config('none', { '102': 'inbound' }), extensionCall('101', '102'))[0]).toBe('bridge');
    expect(kinds(config('all', { '101': 'none', '102': 'none' }), extensionCall('101', '102'))[0]).toBe('ring');
  });

  it("a queue records by its own mode, else the tenant's; an IVR by the tenant's", () => {
    const c = config('all');
    const q = (id: number) => ({ kind: 'queue' as const, queueId: id, strategy: 'ringall' as const, ring: 'parallel' as const, agents: [], agent_timeout: 15, max_wait: 300, moh_class: '', join_greeting_id: null, memoryKey: '', timeout_destination: null, source: { type: 'queue' as const, id: String(id), name: '' } });
    expect(recordsAtWorker(c, q(7), 'inbound')).toBe(false);
    expect(recordsAtWorker(c, q(8), 'inbound')).toBe(true);
    expect(recordsAtWorker(config('outbound'), q(8), 'inbound')).toBe(false);
    expect(recordsAtWorker(c, { kind: 'bridge' }, 'inbound')).toBe(true);
  });

  it('with "monitor every call" on, a direct call the company does not record is bridged by the worker, unrecorded', () => {
    const monitored = { ...config('none'), monitorCalls: true };
    const inboundPlan = planCall(monitored, inboundCall('0912345678', DID), state);
    expect(inboundPlan.steps.map((s) => s.kind)).toEqual(['bridge', 'ring', 'hangup']);
    expect(inboundPlan.steps[0]).toMatchObject({ kind: 'bridge', record: false });
    expect(recordsAtWorker(monitored, inboundPlan.steps[0], 'inbound')).toBe(false);
    expect(kinds(monitored, extensionCall('101', '102'))[0]).toBe('bridge');
    expect(kinds(monitored, extensionCall('101', '0912345678'))[0]).toBe('bridge');
    // A recorded call stays recorded; the option alone never starts a recording.
    const recorded = planCall({ ...config('all'), monitorCalls: true }, inboundCall('0912345678', DID), state).steps[0];
    expect(recorded).toEqual({ kind: 'bridge', source: expect.anything() });
    expect(recordsAtWorker(monitored, recorded, 'inbound')).toBe(true);
    // Off (the default): unchanged.
    expect(kinds({ ...config('none'), monitorCalls: false }, extensionCall('101', '102'))[0]).toBe('ring');
  });

  it('Kamailio hands a recorded call to the worker and tries nothing after it', () => {
    const plan = planCall(config('all'), inboundCall('0912345678', DID), state);
    expect(toKamailioPlan(plan, 'demo.tongdai.local').steps).toEqual([{ do: 'media', from_step: 0 }, { do: 'hangup', from_step: 1 }]);
  });

  it('after an IVR, the leg to an extension or a queue that records is recorded, though the company does not', () => {
    const rec = config('none', { '101': 'inbound' });
    const call = inboundCall('0912345678', DID);
    const to = (d: Parameters<typeof resolveDestination>[1]) => recordsContinuation(rec, resolveDestination(rec, d, call, state), undefined);
    expect(to(dest('direct', '101'))).toBe(true);
    expect(to(dest('direct', '102'))).toBe(false);
    expect(to(dest('queue', 8))).toBe(false);
    expect(recordsContinuation(config('inbound'), resolveDestination(config('inbound'), dest('queue', 7), call, state), undefined)).toBe(false);
    expect(recordsContinuation(config('inbound'), resolveDestination(config('inbound'), dest('queue', 8), call, state), undefined)).toBe(true);
  });
});
