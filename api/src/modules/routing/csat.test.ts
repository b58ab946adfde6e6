import { planCall } from './plan';
import { recordsAtWorker } from './recording';
import { routeAsksCsat } from './csat';
import type { CallInput } from './types';
import { dest, extension, extensionCall, inbound, inboundCall, ivr, liveState, number, outboundRule, pbxConfig, queue, switchboardRoute } from '@tongdai/testkit/routing-factory';
import type { Inbound, PbxConfig, RecordingMode } from '@tongdai/contracts';
import { toKamailioPlan } from '../kamailio/kamailio-plan';

/** Post-call CSAT on an inbound route (issue 34, ADR 0056): the worker is put in front of a call that would not pass through it. */
const DID = '02873000001';
const state = liveState({ registered: ['101', '102'] });
const caller = '0912345678';

function config(destination: Inbound['destination'], o: { csat?: boolean; tenant?: RecordingMode; monitor?: boolean; ext102?: RecordingMode } = {}): PbxConfig {
  return {
    ...pbxConfig({
      ...(o.tenant ? { recordingMode: o.tenant } : {}),
      extensions: [extension('101'), extension('102', { recording_mode: o.ext102 ?? null })],
      numbers: [number(1, DID)],
      inbounds: [inbound(1, DID, destination, '', { csat: o.csat ?? true })],
      queues: [queue(7, ['102']), queue(8, ['102'], { csat: true })],
      ivrs: [ivr(4, { entries: [{ digit: '1', destination: dest('direct', '102') }] })],
      outboundRules: [outboundRule(1, '09XXXXXXXX', { switchboard_ids: [1] })],
      switchboards: [switchboardRoute(1)],
    }),
    ...(o.monitor ? { monitorCalls: true } : {}),
  };
}
const plan = (c: PbxConfig, call: CallInput = inboundCall(caller, DID)) => planCall(c, call, state);
const kinds = (c: PbxConfig, call: CallInput = inboundCall(caller, DID)) => plan(c, call).steps.map((s) => s.kind);
const bridges = (c: PbxConfig) => plan(c).steps.filter((s) => s.kind === 'bridge');

describe("an inbound route's post-call CSAT", () => {
  it('a route to an extension gets one bridge step first, marked csat and not recorded; Kamailio hands the call to a worker', () => {
    const p = plan(config(dest('direct', '102')));
    expect(p.steps.map((s) => s.kind)).toEqual(['bridge', 'ring', 'hangup']);
    expect(p.steps[0]).toEqual({ kind: 'bridge', record: false, csat: true, source: expect.objectContaining({ type: 'direct', id: '102' }) });
    // The bridge is there for the question only: the worker does not record the call.
    expect(recordsAtWorker(config(dest('direct', '102')), p.steps[0], 'inbound')).toBe(false);
    expect(toKamailioPlan(p, 'demo.tongdai.local').steps).toEqual([{ do: 'media', from_step: 0 }, { do: 'hangup', from_step: 1 }]);
  });

  it('the switch off (the default): the plan rings as before', () => {
    expect(kinds(config(dest('direct', '102'), { csat: false }))).toEqual(['ring', 'hangup']);
    expect(bridges(config(dest('direct', '102'), { csat: false }))).toEqual([]);
  });

  it('a recorded call (tenant, or the extension) with CSAT: still one bridge, recording and asking', () => {
    for (const c of [config(dest('direct', '102'), { tenant: 'all' }), config(dest('direct', '102'), { ext102: 'inbound' })]) {
      expect(kinds(c)).toEqual(['bridge', 'ring', 'hangup']);
      expect(bridges(c)).toEqual([{ kind: 'bridge', csat: true, source: expect.anything() }]);
      expect(recordsAtWorker(c, bridges(c)[0], 'inbound')).toBe(true);
    }
    // A tenant whose supervisors listen to every call: one bridge as well.
    const monitored = config(dest('direct', '102'), { monitor: true });
    expect(bridges(monitored)).toEqual([{ kind: 'bridge', record: false, csat: true, source: expect.anything() }]);
    // Recorded without CSAT: the bridge does not ask.
    expect(bridges(config(dest('direct', '102'), { csat: false, tenant: 'all' }))).toEqual([{ kind: 'bridge', source: expect.anything() }]);
  });

  it('a number outside (fw) is bridged too', () => {
    expect(kinds(config(dest('fw', '0901234567')))[0]).toBe('bridge');
    expect(bridges(config(dest('fw', '0901234567')))[0]).toMatchObject({ csat: true, record: false });
  });

  it("a queue destination needs no bridge: the worker's queue step is first and the queue keeps its own setting", () => {
    for (const q of [7, 8]) {
      const c = config(dest('queue', q));
      expect(kinds(c)).toEqual(['queue']);
    }
  });

  it('an IVR destination needs no bridge either (the worker takes the call)', () => {
    expect(kinds(config(dest('ivr', 4)))).toEqual(['ivr']);
    expect(routeAsksCsat(config(dest('ivr', 4)), plan(config(dest('ivr', 4))))).toBe(true);
  });

  it("only the route the call took: a caller pattern's route without CSAT beside the default route with it", () => {
    const c: PbxConfig = {
      ...config(dest('direct', '102')),
      inbounds: [inbound(1, DID, dest('direct', '102'), '', { csat: true }), inbound(2, DID, dest('direct', '101'), '098XXXXXXX', { csat: false })],
    };
    expect(kinds(c, inboundCall('0981234567', DID))).toEqual(['ring', 'hangup']);
    expect(kinds(c, inboundCall(caller, DID))).toEqual(['bridge', 'ring', 'hangup']);
  });

  it("an extension dialling the tenant's own number (an internal call through the route) is never asked", () => {
    const c = config(dest('direct', '102'));
    expect(kinds(c, extensionCall('101', DID))).toEqual(['ring', 'hangup']);
    expect(routeAsksCsat(c, plan(c, extensionCall('101', DID)))).toBe(false);
  });
});
