import type { PlanStep, RoutingPlan } from '../routing';
import { FORWARD_RING_SECONDS, kamailioJson, parseTrunks, toKamailioPlan } from './kamailio-plan';

const source = { type: 'group' as const, id: '7', name: 'Kinh doanh' };
const plan = (...steps: PlanStep[]): RoutingPlan => ({ direction: 'inbound', from: '0901', to: '02873000001', did: '02873000001', steps, route: [], interactive: false });
const DOMAIN = 'demo.tongdai.local';

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
        { do: 'ring', targets: ['101', '102'], timeout: 20, from_step: 0 },
        { do: 'ring', targets: ['103'], timeout: 15, from_step: 1 },
        { do: 'ring', targets: ['104'], timeout: 10, from_step: 1 },
        { do: 'hangup', from_step: 2 },
      ],
    });
  });

  it('sends a forward through its trunk, presenting the rule caller number', () => {
    const k = toKamailioPlan(plan({ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: 'viettel', callerId: '02873000001', ruleId: 1, source }), DOMAIN, parseTrunks('viettel=10.0.0.5:5060'));
    expect(k.steps[0]).toEqual({ do: 'forward', uri: 'sip:0912345678@10.0.0.5:5060', from: '02873000001', timeout: FORWARD_RING_SECONDS, trunk: 'viettel', from_step: 0 });
  });

  it('refuses with 503 when the trunk is not configured', () => {
    const k = toKamailioPlan(plan({ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: 'vnpt', callerId: null, ruleId: 1, source }), DOMAIN, {});
    expect(k.steps).toEqual([{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured', from_step: 0 }]);
    // Kamailio reads the cause and hands it to the caller's phone (X-Tongdai-Cause).
    expect(JSON.parse(kamailioJson(k)).steps).toEqual([{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured' }]);
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
      { do: 'ring', targets: ['101'], timeout: 20, from_step: 0 },
      { do: 'media', from_step: 1 },
      { do: 'hangup', from_step: 2 },
    ]);
  });

  it('sends Kamailio one JSON line without the API-only fields', () => {
    const k = toKamailioPlan(plan({ kind: 'forward', number: '0912345678', dialled: '0912345678', trunk: 'viettel', callerId: null, ruleId: 1, source }), DOMAIN, { viettel: '10.0.0.5' });
    expect(kamailioJson(k)).toBe('{"domain":"demo.tongdai.local","steps":[{"do":"forward","uri":"sip:0912345678@10.0.0.5","from":"","timeout":60},{"do":"hangup"}]}\n');
  });

  it('an empty plan hangs up', () => {
    expect(toKamailioPlan(plan(), DOMAIN, {}).steps).toEqual([{ do: 'hangup', from_step: 0 }]);
  });
});

describe('parseTrunks', () => {
  it('reads name=host[:port] pairs and ignores malformed ones', () => {
    expect(parseTrunks(' viettel=10.0.0.5:5060, vnpt = sip.vnpt.vn ,bad name=1.2.3.4, x=, =y, z=a b')).toEqual({ viettel: '10.0.0.5:5060', vnpt: 'sip.vnpt.vn' });
    expect(parseTrunks(undefined)).toEqual({});
  });
});
