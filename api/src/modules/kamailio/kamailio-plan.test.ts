import { callFailureOf, type CallerIdFormat } from '@tongdai/contracts';
import { dest, extension, inbound, inboundCall, liveState, pbxConfig, ringGroup } from '@tongdai/testkit/routing-factory';
import { planCall } from '../routing/plan';
import type { PlanStep, RoutingPlan } from '../routing';
import { FORWARD_RING_SECONDS, KAMAILIO_READABLE_BYTES, kamailioJson, planForKamailio, toKamailioPlan, type PlanTrunks } from './kamailio-plan';

const source = { type: 'group' as const, id: '7', name: 'Kinh doanh' };
const plan = (...steps: PlanStep[]): RoutingPlan => ({ direction: 'inbound', from: '0901', to: '02873000001', did: '02873000001', steps, route: [], interactive: false });
const DOMAIN = 'demo.tongdai.local';
const sb = (id: number, name: string, host: string, o: { port?: number; transport?: 'udp' | 'tcp'; enabled?: boolean; callerIdFormat?: CallerIdFormat; address?: string | null } = {}) =>
  ({ id, tenantId: 1, name, host, port: o.port ?? 5060, transport: o.transport ?? 'udp', callerIdFormat: o.callerIdFormat ?? 'national', maxChannels: id * 10, enabled: o.enabled ?? true, address: o.address === undefined ? host : o.address });
/** Rule 1 goes out through Viettel then VNPT (TCP, caller ID as +84…); rule 2 through a disabled trunk only; rule 3 is a legacy free-text trunk. */
const TRUNKS: PlanTrunks = {
  switchboards: [sb(1, 'Viettel', '10.0.0.5', { port: 5080 }), sb(2, 'VNPT', 'sip.vnpt.vn', { transport: 'tcp', callerIdFormat: 'e164', address: '203.113.131.5' }), sb(3, 'Tắt', '10.0.0.9', { enabled: false }), sb(4, 'Chặn', 'evil.example', { address: null })],
  ruleSwitchboards: (ruleId) => ({ 1: [1, 2], 2: [3], 4: [4, 1] })[ruleId] ?? [],
};
const forward = (ruleId: number, callerId: string | null = '02873000001', switchboards?: number[]) =>
  ({ kind: 'forward' as const, number: '0912345678', dialled: '0912345678', trunk: ruleId === 3 ? 'viettel' : '', callerId, ruleId, source, ...(switchboards && { switchboards }) });

describe('toKamailioPlan', () => {
  it('keeps a parallel ring as one fork and splits a serial ring into one fork per extension', () => {
    const k = toKamailioPlan(
      plan(
        { kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }, { extension: '102', timeout: 20 }], timeout: 20, source },
        { kind: 'ring', mode: 'serial', targets: [{ extension: '103', timeout: 15 }, { extension: '104', timeout: 10 }], timeout: 25, source },
      ),
      DOMAIN,
      {},
    );
    expect(k).toEqual({
      domain: DOMAIN,
      steps: [
        { do: 'ring', targets: ['101', '102'], timeout: 20, via: 'hotline=02873000001;group=Kinh%20doanh', from_step: 0 },
        { do: 'ring', targets: ['103'], timeout: 15, via: 'hotline=02873000001;group=Kinh%20doanh', from_step: 1 },
        { do: 'ring', targets: ['104'], timeout: 10, via: 'hotline=02873000001;group=Kinh%20doanh', from_step: 1 },
        { do: 'hangup', from_step: 2 },
      ],
    });
  });

  it('tells the phones which hotline and group or queue the call came through (X-Tongdai-Via), and nothing on a direct call', () => {
    const ring = (src: { type: 'group' | 'queue' | 'direct'; id: string; name: string }): PlanStep => ({ kind: 'ring', mode: 'parallel', targets: [{ extension: '102', timeout: 20 }], timeout: 20, source: src });
    // The DID as the carrier wrote it (84…): the popup writes it 028…, as every screen does.
    const fromCarrier = { ...plan(ring({ type: 'queue', id: '3', name: 'CSKH' })), did: '842873000001' };
    expect(JSON.parse(kamailioJson(toKamailioPlan(fromCarrier, DOMAIN, {}))).steps[0]).toEqual({ do: 'ring', targets: ['102'], timeout: 20, via: 'hotline=02873000001;queue=CSKH' });
    const colleague = { ...plan(ring({ type: 'direct', id: '102', name: '102' })), direction: 'internal' as const, did: null };
    expect(toKamailioPlan(colleague, DOMAIN, {}).steps[0]).not.toHaveProperty('via');
    const groupCall = { ...colleague, ...plan(ring({ type: 'group', id: '7', name: 'Chăm sóc khách hàng' })), did: null };
    expect(toKamailioPlan(groupCall, DOMAIN, {}).steps[0]).toMatchObject({ via: 'group=Ch%C4%83m%20s%C3%B3c%20kh%C3%A1ch%20h%C3%A0ng' });
  });

  it('sends a supervisor to the worker that holds the call, and to no other (ADR 0042)', () => {
    const k = toKamailioPlan(plan({ kind: 'spy', mode: 'whisper', extension: '102', callId: 'abc@media', leg: 'b', worker: '10.0.0.7:5090' }, { kind: 'hangup' }), DOMAIN, {});
    expect(k.steps).toEqual([{ do: 'media', from_step: 0, worker: 'sip:10.0.0.7:5090' }, { do: 'hangup', from_step: 1 }]);
    expect(JSON.parse(kamailioJson(k)).steps[0]).toEqual({ do: 'media', worker: 'sip:10.0.0.7:5090' });
  });

  it("sends a forward through each of the rule's switchboards in order (failover), presenting the hotline in each carrier's form", () => {
    // A rule's caller ID stored as 84… goes to each carrier in its switchboard's form.
    const k = toKamailioPlan(plan(forward(1, '842873000001')), DOMAIN, TRUNKS);
    expect(k.steps).toEqual([
      { do: 'forward', uri: 'sip:0912345678@10.0.0.5:5080', dst: 'sip:10.0.0.5:5080', from: '02873000001', timeout: FORWARD_RING_SECONDS, trunk: 'Viettel', sb: 1, sb_max: 10, alt: 1, from_step: 0 },
      { do: 'forward', uri: 'sip:0912345678@sip.vnpt.vn:5060;transport=tcp', dst: 'sip:203.113.131.5:5060;transport=tcp', from: '+842873000001', timeout: FORWARD_RING_SECONDS, trunk: 'VNPT', sb: 2, sb_max: 20, alt: 0, from_step: 0 },
      { do: 'hangup', from_step: 1 },
    ]);
    // The engine's own list (ForwardStep.switchboards) wins over the rule's.
    expect(toKamailioPlan(plan(forward(1, null, [2])), DOMAIN, TRUNKS).steps[0]).toMatchObject({ sb: 2, from: '', alt: 0 });
  });

  it('refuses with 503 trunk_not_configured: a legacy free-text trunk, or only disabled switchboards', () => {
    for (const ruleId of [2, 3]) {
      const k = toKamailioPlan(plan(forward(ruleId, null)), DOMAIN, TRUNKS);
      expect(k.steps).toEqual([{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured', from_step: 0 }]);
      // Kamailio reads the cause and hands it to the caller's phone (X-Tongdai-Cause).
      expect(JSON.parse(kamailioJson(k)).steps).toEqual([{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured' }]);
    }
  });

  it('leaves out a switchboard without an address the host policy allows (blocked, ADR 0043): the plan never names it', () => {
    const k = toKamailioPlan(plan(forward(4, null)), DOMAIN, TRUNKS);
    expect(k.steps.map((s) => (s.do === 'forward' ? s.sb : s.do))).toEqual([1, 'hangup']);
    expect(kamailioJson(k)).not.toContain('evil.example');
    // Only the blocked one: nothing to send to.
    expect(toKamailioPlan(plan(forward(4, null, [4])), DOMAIN, TRUNKS).steps[0]).toMatchObject({ do: 'reject', cause: 'trunk_not_configured' });
  });

  it('stops at the first final answer: a reject keeps its code; media steps go to a worker, then on', () => {
    const blocked = toKamailioPlan(plan({ kind: 'reject', code: 603, reason: 'blocked_in', message: 'x' }, { kind: 'hangup' }), DOMAIN, {});
    expect(blocked.steps).toEqual([{ do: 'reject', code: 603, reason: 'Decline', cause: 'blocked_in', from_step: 0 }]);
    const ivr = toKamailioPlan(
      plan(
        { kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }], timeout: 20, source },
        { kind: 'voicemail', mailbox: '101', source },
        { kind: 'hangup' },
      ),
      DOMAIN,
      {},
    );
    expect(ivr.steps).toEqual([
      { do: 'ring', targets: ['101'], timeout: 20, via: 'hotline=02873000001;group=Kinh%20doanh', from_step: 0 },
      { do: 'media', from_step: 1 },
      { do: 'hangup', from_step: 2 },
    ]);
  });

  it('sends Kamailio one JSON line without the API-only fields', () => {
    const k = toKamailioPlan(plan(forward(1, null, [1])), DOMAIN, TRUNKS);
    expect(kamailioJson(k)).toBe('{"domain":"demo.tongdai.local","steps":[{"do":"forward","uri":"sip:0912345678@10.0.0.5:5080","dst":"sip:10.0.0.5:5080","from":"","timeout":60,"sb":1,"sb_max":10,"alt":0},{"do":"hangup"}]}\n');
  });

  it('an empty plan hangs up', () => {
    expect(toKamailioPlan(plan(), DOMAIN, {}).steps).toEqual([{ do: 'hangup', from_step: 0 }]);
  });
});

describe('planForKamailio: what Kamailio can read', () => {
  /** A memory-hunt group of n agents, all registered, as the routing engine plans it and the tracker snapshots it. */
  const memoryHunt = (n: number) => {
    const exts = Array.from({ length: n }, (_, i) => String(1000 + i));
    const config = pbxConfig({ extensions: exts.map((e) => extension(e)), inbounds: [inbound(1, '02873000001', dest('group', 1))], ringGroups: [ringGroup(1, exts, { strategy: 'memoryhunt', ring_time: 10 })] });
    const routing = planCall(config, inboundCall('0912345678', '02873000001'), liveState({ registered: exts }));
    const k = { ...toKamailioPlan(routing, DOMAIN, {}), tenant: 1, tenant_max: 30 };
    return { k, j: JSON.stringify({ callId: 'c1', tenantId: 1, plan: routing, kamailio: k, startedAt: new Date() }) };
  };

  it('sends the call state with the plan when both fit', () => {
    const { k, j } = memoryHunt(10);
    const fit = planForKamailio(k, j);
    expect(fit.left).toBeUndefined();
    expect(JSON.parse(fit.body)).toEqual({ ...JSON.parse(kamailioJson(k)), j });
  });

  it('leaves the state out when the plan with it is more than Kamailio reads, and refuses a plan too big alone (503, not a 480 nobody could explain)', () => {
    // 80 agents ring 3,240 times in all: the plan alone fits, with its state twice over it does not.
    const mid = memoryHunt(80);
    expect(Buffer.byteLength(kamailioJson({ ...mid.k, j: mid.j }))).toBeGreaterThan(KAMAILIO_READABLE_BYTES);
    const fit = planForKamailio(mid.k, mid.j);
    expect({ left: fit.left, under: fit.bytes <= KAMAILIO_READABLE_BYTES }).toEqual({ left: 'state', under: true });
    expect(JSON.parse(fit.body)).toEqual(JSON.parse(kamailioJson(mid.k)));
    const big = memoryHunt(200);
    const refused = planForKamailio(big.k, big.j);
    expect(refused.left).toBe('plan');
    expect(refused.bytes).toBeGreaterThan(KAMAILIO_READABLE_BYTES);
    expect(JSON.parse(refused.body)).toEqual({ domain: DOMAIN, steps: [{ do: 'reject', code: 503, reason: 'Routing Plan Too Large', cause: 'plan_too_large' }] });
    expect(callFailureOf({ status: 503, cause: 'plan_too_large' })).toBe('failed');
  });
});
