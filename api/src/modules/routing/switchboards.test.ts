import { planCall } from './plan';
import { dest, extension, extensionCall, inbound, liveState, number, outboundRule, pbxConfig, switchboardRoute } from '@tongdai/testkit/routing-factory';
import type { PbxConfig } from '@tongdai/contracts';
import type { ForwardStep } from './types';

/**
 * Issue 15: outbound rules go through the tenant's switchboards (ordered, failover), present one of
 * its hotlines as caller id (fixed, or the hotline on the callee's carrier), and an extension
 * dialling one of the tenant's own numbers reaches its inbound route without a carrier.
 */

const state = liveState({ registered: ['101', '102', '103'] });
// Switchboard 1: Viettel (a landline hotline); 2: VNPT (a 1800 hotline, a Vinaphone mobile and a
// Viettel mobile bought through it); 3: FPT, turned off.
const boards = [
  switchboardRoute(1, { name: 'Viettel HCM', carrier: 'viettel', hotlines: ['842873000001'] }),
  switchboardRoute(2, { name: 'VNPT', carrier: 'vnpt', hotlines: ['18001234', '84912000001', '84987000001'] }),
  switchboardRoute(3, { name: 'FPT', carrier: 'fpt', enabled: false, hotlines: ['842473000009'] }),
];
const tenant = (more: Partial<PbxConfig> = {}) =>
  pbxConfig({
    extensions: [extension('101'), extension('102'), extension('103')],
    switchboards: boards,
    numbers: [number(1, '842873000001', { switchboard_id: 1 }), number(2, '18001234', { switchboard_id: 2 }), number(3, '842873000050')],
    inbounds: [inbound(1, '842873000001', dest('direct', '102')), inbound(2, '18001234', dest('direct', '103')), inbound(3, '842873000050', dest('direct', '103'))],
    outboundRules: [
      outboundRule(1, '0[35789]XXXXXXXX', { name: 'Di động', trunk: '', switchboard_ids: [2, 1], caller_id_mode: 'carrier', caller_id: '02873000001', priority: 10 }),
      outboundRule(2, '0[2]XXXXXXXXX', { name: 'Cố định', trunk: '', switchboard_ids: [3, 1, 2], caller_id: '18001234', priority: 20 }),
    ],
    ...more,
  });
const dial = (to: string, config = tenant()) => planCall(config, { ...extensionCall('101', to), direction: 'outbound' }, state);
const forward = (to: string, config = tenant()) => {
  const step = dial(to, config).steps[0];
  if (step.kind !== 'forward') throw new Error(`expected a forward step, got ${JSON.stringify(step)}`);
  return step as ForwardStep;
};

describe('outbound through switchboards', () => {
  it("keeps the rule's order of switchboards (failover) and leaves out a switchboard that is turned off", () => {
    expect(forward('0987654321').switchboards).toEqual([2, 1]);
    expect(forward('02838123456').switchboards).toEqual([1, 2]);
    const allOn = tenant({ switchboards: boards.map((b) => ({ ...b, enabled: true })) });
    expect(forward('02838123456', allOn).switchboards).toEqual([3, 1, 2]);
  });

  it("fixed: always the rule's hotline, whatever the callee's carrier", () => {
    expect(forward('02838123456')).toMatchObject({ callerId: '18001234', ruleId: 2 });
  });

  it("carrier: the tenant's hotline on the callee's carrier (a mobile hotline by its prefix), else the rule's hotline", () => {
    // Viettel mobile callee → the Viettel mobile hotline (its prefix says Viettel, not its VNPT switchboard).
    expect(forward('0987654321').callerId).toBe('0987000001');
    // Vinaphone callee → VNPT: the 1800 hotline of the VNPT switchboard is listed first on it.
    expect(forward('0912345678').callerId).toBe('18001234');
    // Mobifone: no hotline on that carrier → the rule's caller id.
    expect(forward('0901234567').callerId).toBe('02873000001');
  });

  it("carrier: hotlines on the rule's own switchboards come before the tenant's others", () => {
    const otherViettel = switchboardRoute(4, { carrier: 'viettel', hotlines: ['842873000077'] });
    const config = tenant({
      switchboards: [otherViettel, ...boards.map((b) => (b.id === 2 ? { ...b, hotlines: ['18001234'] } : b.id === 1 ? { ...b, hotlines: ['842873000011'] } : b))],
    });
    // Switchboard 1 (in the rule) is Viettel: its landline hotline wins over switchboard 4's.
    expect(forward('0987654321', config).callerId).toBe('02873000011');
    const only4 = tenant({ switchboards: [otherViettel, ...boards.filter((b) => b.id !== 1).map((b) => (b.id === 2 ? { ...b, hotlines: ['18001234'] } : b))] });
    expect(forward('0987654321', only4).callerId).toBe('02873000077');
  });

  it('international and premium numbers stay refused unless the rule allows them', () => {
    expect(dial('0033142345678').steps[0]).toMatchObject({ kind: 'reject', code: 403, reason: 'international' });
    expect(dial('19001234').steps[0]).toMatchObject({ kind: 'reject', code: 403, reason: 'premium' });
    const open = tenant({
      outboundRules: [
        outboundRule(3, '00.', { switchboard_ids: [1], strip: 2, prepend: '+', allow_international: true }),
        outboundRule(4, '1900XXXX', { switchboard_ids: [2], allow_premium: true }),
      ],
    });
    expect(forward('0033142345678', open)).toMatchObject({ number: '+33142345678', switchboards: [1] });
    expect(forward('19001234', open)).toMatchObject({ switchboards: [2], ruleId: 4 });
  });
});

describe("an extension dialling one of the tenant's own numbers", () => {
  it('reaches the inbound route of the DID or hotline internally, in any written form, without a switchboard', () => {
    for (const to of ['02873000001', '842873000001', '+842873000001', '+84 28 7300 0001']) {
      const p = dial(to);
      expect(p.direction).toBe('internal');
      expect(p.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '102' }] });
      expect(p.steps.some((s) => s.kind === 'forward')).toBe(false);
      expect(p.route.map((n) => n.type)).toEqual(['extension', 'inbound', 'direct']);
    }
    expect(dial('18001234').steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '103' }] });
    // A plain DID (no switchboard) too.
    expect(dial('02873000050').steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '103' }] });
  });

  it('a number that is not the tenant\'s still goes out through the rules', () => {
    expect(dial('02873000002').steps[0]).toMatchObject({ kind: 'forward', switchboards: [1, 2] });
  });

  it('an inactive number of the tenant is refused like an inbound call to it', () => {
    const config = tenant({ numbers: [number(1, '842873000001', { switchboard_id: 1, active: false })] });
    expect(dial('02873000001', config).steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'did_inactive' });
  });
});
