import { planCall } from './plan';
import { extension, extensionCall, liveState, number, outboundRule, pbxConfig, switchboardRoute } from '@tongdai/testkit/routing-factory';
import type { PbxConfig } from '@tongdai/contracts';
import type { CampaignCaller, ForwardStep } from './types';

/**
 * ADR 0050 slice 3 (Decree 91: an advertising call shows the identity registered for it): a number an
 * extension dials moments after its agent's allowed "Gọi" goes out with the campaign's hotline as caller
 * ID, through the switchboard that carries that hotline first; every other call is as the rule says.
 */
const boards = [
  switchboardRoute(1, { name: 'Viettel HCM', carrier: 'viettel', hotlines: ['842873000001'] }),
  switchboardRoute(2, { name: 'VNPT', carrier: 'vnpt', hotlines: ['842473000002'] }),
  switchboardRoute(3, { name: 'FPT', carrier: 'fpt', enabled: false, hotlines: ['842873000009'] }),
];
const tenant = (more: Partial<PbxConfig> = {}) =>
  pbxConfig({
    extensions: [extension('101'), extension('102')],
    switchboards: boards,
    numbers: [number(1, '842873000001', { switchboard_id: 1 }), number(2, '842473000002', { switchboard_id: 2 }), number(3, '842873000009', { switchboard_id: 3 })],
    outboundRules: [outboundRule(1, '0[35789]XXXXXXXX', { name: 'Di động', trunk: '', switchboard_ids: [1, 2], caller_id: '02873000001', priority: 10 })],
    ...more,
  });
const campaign = (hotline: string): CampaignCaller => ({ campaignId: 7, hotline });
const dial = (to: string, caller: CampaignCaller | null, config = tenant()) =>
  planCall(config, { ...extensionCall('101', to), direction: 'outbound' }, { ...liveState({ registered: ['101', '102'] }), campaignCaller: caller });
const forward = (to: string, caller: CampaignCaller | null, config = tenant()) => {
  const step = dial(to, caller, config).steps[0];
  if (step.kind !== 'forward') throw new Error(`expected a forward step, got ${JSON.stringify(step)}`);
  return step as ForwardStep;
};

describe('the caller ID of a campaign call', () => {
  it("no campaign attempt: the rule's caller ID and switchboards", () => {
    expect(forward('0912345678', null)).toMatchObject({ callerId: '02873000001', switchboards: [1, 2] });
  });

  it("a campaign attempt: the campaign's hotline (national form, whatever form it came in), its switchboard first", () => {
    expect(forward('0912345678', campaign('842473000002'))).toMatchObject({ callerId: '02473000002', switchboards: [2, 1], ruleId: 1 });
    expect(forward('0912345678', campaign('02873000001'))).toMatchObject({ callerId: '02873000001', switchboards: [1, 2] });
  });

  it("the hotline's switchboard is turned off, or the hotline is on none: the caller ID still, the rule's switchboards", () => {
    expect(forward('0912345678', campaign('842873000009'))).toMatchObject({ callerId: '02873000009', switchboards: [1, 2] });
    expect(forward('0912345678', campaign('02899999999'))).toMatchObject({ callerId: '02899999999', switchboards: [1, 2] });
  });

  it('never opens a route: a number no rule allows is refused as before; an internal call is not touched', () => {
    expect(dial('+6512345678', campaign('842473000002')).steps[0]).toMatchObject({ kind: 'reject', code: 403 });
    const internal = dial('102', campaign('842473000002'));
    expect(internal.steps.some((s) => s.kind === 'forward')).toBe(false);
  });
});
