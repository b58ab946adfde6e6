import { planCall } from './plan';
import { blocked, dest, extension, extensionCall, inbound, inboundCall, ivr, liveState, number, outboundRule, pbxConfig, queue, switchboardRoute } from '@tongdai/testkit/routing-factory';
import type { PbxConfig } from '@tongdai/contracts';
import type { RoutingPlan } from './types';

const DID = '02873000001';
const state = liveState({ registered: ['101', '102', '103', '104', '105', '106'] });
const rung = (p: RoutingPlan) => (p.steps[0].kind === 'ring' ? p.steps[0].targets[0].extension : p.steps[0].kind);

describe('inbound route matching', () => {
  const config = pbxConfig({
    extensions: ['101', '102', '103', '104', '105', '106'].map((e) => extension(e)),
    numbers: [number(1, DID), number(2, '02873000002', { active: false })],
    inbounds: [
      inbound(1, DID, dest('direct', '101')), // no caller pattern: everyone else
      inbound(2, DID, dest('direct', '102'), '09XXXXXXXX'),
      inbound(3, DID, dest('direct', '103'), '091XXXXXXX'),
      inbound(4, DID, dest('direct', '104'), '0912345678'),
      inbound(5, DID, dest('direct', '105'), '08.'),
      inbound(6, DID, dest('direct', '106'), '0[3-5]N.'),
      inbound(7, '02873000002', dest('direct', '101')),
    ],
  });
  const from = (caller: string, did = DID) => planCall(config, inboundCall(caller, did), state);

  it('the most specific caller pattern wins, the empty pattern takes the rest', () => {
    expect(rung(from('0912345678'))).toBe('104'); // exact
    expect(rung(from('0912000000'))).toBe('103'); // 091XXXXXXX over 09XXXXXXXX
    expect(rung(from('0987000000'))).toBe('102');
    expect(rung(from('0812'))).toBe('105'); // trailing "." = one or more
    expect(rung(from('08'))).toBe('101');
    expect(rung(from('0422'))).toBe('106'); // [3-5] then N (2-9)
    expect(rung(from('0412'))).toBe('101'); // N excludes 1
    expect(rung(from('02873999999'))).toBe('101');
    expect(rung(from(''))).toBe('101'); // anonymous caller
  });

  it('matches the caller and the DID in national or international form', () => {
    expect(rung(from('+84912345678'))).toBe('104');
    expect(rung(from('84912000000'))).toBe('103');
    expect(rung(from('0987000000', '+842873000001'))).toBe('102');
    expect(from('0987000000', '+842873000001').did).toBe('+842873000001');
  });

  it('records the inbound route in the CDR route', () => {
    expect(from('0912000000').route[0]).toEqual({ type: 'inbound', id: '3', name: `${DID} / 091XXXXXXX` });
  });

  it('an unknown or inactive DID is refused with 404', () => {
    expect(from('0912345678', '02800000000').steps).toEqual([{ kind: 'reject', code: 404, reason: 'unknown_did', message: 'Không có tuyến gọi vào cho số này' }]);
    expect(from('0912345678', '02873000002').steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'did_inactive' });
  });
});

describe('blocked incoming numbers', () => {
  const config = pbxConfig({
    extensions: [extension('101')],
    inbounds: [inbound(1, DID, dest('direct', '101'))],
    blocked: [blocked(1, 'in', '0911111111'), blocked(2, 'in', '+8424', 'prefix'), blocked(3, 'in', '1900', 'prefix'), blocked(4, 'out', '0922222222')],
  });
  const from = (caller: string) => planCall(config, inboundCall(caller, DID), state);

  it('refuses a blocked caller with 603 Decline, exact or by prefix, in any number form', () => {
    const refused = { kind: 'reject', code: 603, reason: 'blocked_in', message: 'Số gọi đến nằm trong danh sách chặn' };
    expect(from('0911111111').steps).toEqual([refused]);
    expect(from('+84911111111').steps).toEqual([refused]);
    expect(from('0243334444').steps).toEqual([refused]); // +8424 prefix = 024 nationally
    expect(from('19001234').steps).toEqual([refused]);
    expect(from('0243334444').route).toEqual([]);
  });

  it('lets other callers through (a prefix is not an exact number, an outgoing block does not apply)', () => {
    expect(rung(from('09111111112'))).toBe('101');
    expect(rung(from('0922222222'))).toBe('101');
  });
});

describe('outbound calls', () => {
  const rules = [
    outboundRule(1, '0[35789]XXXXXXXX', { name: 'Di động', trunk: '', switchboard_ids: [1], caller_id: '02873000001', priority: 10 }),
    outboundRule(2, '0[2]XXXXXXXXX', { name: 'Cố định', trunk: '', switchboard_ids: [2], priority: 20 }),
    outboundRule(3, '9.', { name: 'Số 9 ra ngoài', trunk: '', switchboard_ids: [3], strip: 1, prepend: '', priority: 30 }),
    outboundRule(4, '00.', { name: 'Quốc tế', trunk: '', switchboard_ids: [4], strip: 2, prepend: '+', priority: 40, allow_international: true }),
    outboundRule(5, '0[35789]XXXXXXXX', { name: 'Di động dự phòng', trunk: '', switchboard_ids: [5], priority: 50 }),
    outboundRule(6, 'NXXXXXXX.', { name: 'Dịch vụ', trunk: '', switchboard_ids: [2], priority: 60 }),
  ];
  const base = (more: Partial<PbxConfig> = {}) =>
    pbxConfig({ extensions: [extension('101'), extension('102')], outboundRules: rules, switchboards: [1, 2, 3, 4, 5, 6].map((id) => switchboardRoute(id)), blocked: [blocked(1, 'out', '0933333333'), blocked(2, 'out', '0944', 'prefix'), blocked(3, 'in', '0955555555')], ...more });
  const dial = (to: string, config = base()) => planCall(config, { ...extensionCall('101', to), direction: 'outbound' }, state);

  it('the first rule by priority whose pattern matches carries the call, through its switchboards, with its caller id', () => {
    const p = dial('0987654321');
    expect(p.steps).toEqual([{ kind: 'forward', number: '0987654321', dialled: '0987654321', trunk: '', switchboards: [1], callerId: '02873000001', ruleId: 1, source: { type: 'outbound', id: '1', name: 'Di động' } }]);
    expect(p.direction).toBe('outbound');
    expect(p.route).toEqual([{ type: 'outbound', id: '1', name: 'Di động' }]);
    expect(dial('02838123456').steps[0]).toMatchObject({ switchboards: [2], callerId: null });
  });

  it('priority, not list order, decides', () => {
    const reordered = base({ outboundRules: [{ ...rules[4], priority: 5 }, ...rules.slice(0, 4)] });
    expect(dial('0987654321', reordered).steps[0]).toMatchObject({ switchboards: [5], ruleId: 5 });
  });

  it('strip removes leading digits, prepend adds some', () => {
    expect(dial('90987654321').steps[0]).toMatchObject({ kind: 'forward', number: '0987654321', dialled: '90987654321', switchboards: [3] });
    expect(dial('0033142345678').steps[0]).toMatchObject({ number: '+33142345678', switchboards: [4] });
  });

  it('international numbers need a rule that allows them', () => {
    const noIntl = base({ outboundRules: rules.filter((r) => !r.allow_international) });
    expect(dial('0033142345678', noIntl).steps).toEqual([{ kind: 'reject', code: 403, reason: 'international', message: 'Không được gọi quốc tế nếu không có tuyến cho phép' }]);
    expect(dial('+33142345678', noIntl).steps[0]).toMatchObject({ code: 403, reason: 'international' });
    // +84 is the country's own code: a domestic mobile number.
    expect(dial('+84987654321', noIntl).steps[0]).toMatchObject({ kind: 'forward', number: '0987654321', switchboards: [1] });
  });

  it('premium 1900 numbers need a rule that allows them, even when a pattern matches', () => {
    expect(dial('19001234').steps).toEqual([{ kind: 'reject', code: 403, reason: 'premium', message: 'Không được gọi đầu số dịch vụ giá cao nếu không có tuyến cho phép' }]);
    const allowed = base({ outboundRules: [...rules, outboundRule(7, '1900XXXX', { trunk: '', switchboard_ids: [6], priority: 70, allow_premium: true })] });
    expect(dial('19001234', allowed).steps[0]).toMatchObject({ kind: 'forward', switchboards: [6], ruleId: 7 });
  });

  it('no matching rule: 404', () => {
    expect(dial('1234567').steps).toEqual([{ kind: 'reject', code: 404, reason: 'no_route', message: 'Không có tuyến gọi ra phù hợp với số đã quay' }]);
  });

  it('blocked outgoing numbers are refused with 403, exact or by prefix; incoming blocks do not apply', () => {
    expect(dial('0933333333').steps).toEqual([{ kind: 'reject', code: 403, reason: 'blocked_out', message: 'Số gọi đi nằm trong danh sách chặn' }]);
    expect(dial('+84933333333').steps[0]).toMatchObject({ reason: 'blocked_out' });
    expect(dial('0944123456').steps[0]).toMatchObject({ reason: 'blocked_out' });
    expect(dial('90944123456').steps[0]).toMatchObject({ reason: 'blocked_out' }); // blocked after strip
    expect(dial('0955555555').steps[0]).toMatchObject({ kind: 'forward' });
  });
});

describe('internal calls', () => {
  const config = pbxConfig({ extensions: [extension('101', { display_name: 'Lan' }), extension('102', { display_name: 'Minh', ring_time: 30 })] });

  it('extension to extension rings the callee', () => {
    const p = planCall(config, extensionCall('101', '102'), state);
    expect(p.direction).toBe('internal');
    expect(p.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '102', timeout: 30 }] });
    expect(p.route).toEqual([{ type: 'extension', id: '101', name: '101 - Lan' }, { type: 'direct', id: '102', name: '102 - Minh' }]);
  });

  it('a number dialled as outbound that is an extension stays internal; an unknown extension is refused with 404', () => {
    expect(planCall(config, { ...extensionCall('101', '102'), direction: 'outbound' }, state).direction).toBe('internal');
    expect(planCall(config, extensionCall('101', '109'), state).steps).toEqual([{ kind: 'reject', code: 404, reason: 'unknown_extension', message: 'Máy nhánh 109 không tồn tại' }]);
  });
});

describe('feature codes for queues and IVRs (*41<id>, *42<id>, issue 16)', () => {
  const config = pbxConfig({
    extensions: ['101', '102'].map((e) => extension(e)),
    queues: [queue(3, ['102'], { name: 'CSKH' })],
    ivrs: [ivr(5, { name: 'Menu chính' })],
  });
  const dial = (to: string) => planCall(config, extensionCall('101', to), state);

  it('an extension reaches a queue or an IVR by its code, internally, as an inbound route to it would', () => {
    const q = dial('*413');
    expect(q).toMatchObject({ direction: 'internal', interactive: true });
    expect(q.steps[0]).toMatchObject({ kind: 'queue', queueId: 3 });
    expect(q.route.map((n) => n.type)).toEqual(['extension', 'queue']);
    const i = dial('*425');
    expect(i.steps[0]).toMatchObject({ kind: 'ivr', ivrId: 5 });
  });

  it('*97 opens the caller\'s own mailbox, *98 one the menu asks for (issue 16)', () => {
    expect(dial('*97').steps).toEqual([{ kind: 'mailbox', mailbox: '101', source: { type: 'extension', id: '101', name: 'Hộp thư thoại 101' } }]);
    expect(dial('*98').steps[0]).toMatchObject({ kind: 'mailbox', mailbox: null });
    expect(planCall(config, extensionCall('109', '*97'), state).steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'unknown_extension' });
  });

  it("*96<id> opens a ring group's shared mailbox (the API lets its members in); not from outside the tenant's extensions", () => {
    expect(dial('*967').steps).toEqual([{ kind: 'mailbox', mailbox: 'group-7', source: { type: 'extension', id: '', name: 'Hộp thư nhóm' } }]);
    expect(planCall(config, extensionCall('109', '*967'), state).steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'unknown_extension' });
    // Not a group code: *96 alone, or a zero-led id, goes where any other number would.
    expect(dial('*96').steps[0]).not.toMatchObject({ kind: 'mailbox' });
    expect(dial('*9607').steps[0]).not.toMatchObject({ kind: 'mailbox' });
  });

  it('a code naming nothing of the tenant is refused (404), never sent to a carrier', () => {
    for (const to of ['*419', '*427']) expect(dial(to).steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'missing_destination' });
  });
});
