import type { Destination, PbxConfig } from '@tongdai/contracts';
import { planCall } from './plan';
import { resolveDestination } from './expand';
import {
  audio,
  dest,
  extension,
  inbound,
  inboundCall,
  ivr,
  lastCall,
  liveState,
  notification,
  officeHours,
  outboundRule,
  pbxConfig,
  queue,
  ringGroup,
  timeCondition,
  timeGroup,
  vn,
  type LiveInput,
} from '@tongdai/testkit/routing-factory';
import type { RoutingPlan } from './types';
import { applyOverrides, computedHolidays, daysInForce } from '../holidays/vn-holidays';

const DID = '02873000001';
const CALLER = '0912345678';

/** A tenant whose only inbound route on DID sends calls to `to`. */
function tenant(to: Destination, more: Partial<PbxConfig> = {}): PbxConfig {
  return pbxConfig({
    extensions: [extension('101'), extension('102'), extension('103'), extension('104', { voicemail: true })],
    audio: [audio(1), audio(2)],
    inbounds: [inbound(1, DID, to)],
    outboundRules: [outboundRule(1, '0[3-9]XXXXXXXX', { trunk: 'viettel', caller_id: DID })],
    ...more,
  });
}
const all: LiveInput = { registered: ['101', '102', '103', '104'] };
const plan = (config: PbxConfig, live: LiveInput = all, at?: Date): RoutingPlan => planCall(config, inboundCall(CALLER, DID, at), liveState(live));
const kinds = (p: RoutingPlan) => p.steps.map((s) => s.kind);
const route = (p: RoutingPlan) => p.route.map((n) => `${n.type}:${n.id}`);

describe('direct (extension)', () => {
  it('rings an available extension, then hangs up on no answer', () => {
    const p = plan(tenant(dest('direct', '101')));
    expect(p.steps[0]).toMatchObject({ kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }], timeout: 20, source: { type: 'direct', id: '101', name: '101 - NV 101' } });
    expect(kinds(p)).toEqual(['ring', 'hangup']);
    expect(route(p)).toEqual(['inbound:1', 'direct:101']);
    expect(p).toMatchObject({ direction: 'inbound', did: DID, interactive: false });
  });

  it('an offline extension is refused with 480, a busy one with 486', () => {
    expect(plan(tenant(dest('direct', '101')), { registered: [] }).steps).toEqual([expect.objectContaining({ kind: 'reject', code: 480, reason: 'offline', message: 'Máy nhánh 101 không trực tuyến' })]);
    expect(plan(tenant(dest('direct', '101')), { registered: ['101'], busy: ['101'] }).steps).toEqual([expect.objectContaining({ kind: 'reject', code: 486, reason: 'busy' })]);
  });

  it('an extension with voicemail takes the call there when offline, busy or after no answer', () => {
    expect(kinds(plan(tenant(dest('direct', '104')), { registered: [] }))).toEqual(['voicemail']);
    expect(kinds(plan(tenant(dest('direct', '104')), { registered: ['104'], busy: ['104'] }))).toEqual(['voicemail']);
    const p = plan(tenant(dest('direct', '104')));
    expect(kinds(p)).toEqual(['ring', 'voicemail']);
    expect(p.steps[1]).toMatchObject({ mailbox: '104' });
  });

  it('a deleted extension is refused with 404', () => {
    expect(plan(tenant(dest('direct', '199'))).steps).toEqual([expect.objectContaining({ kind: 'reject', code: 404, reason: 'unknown_extension', message: 'Máy nhánh 199 không tồn tại' })]);
  });
});

describe('group (ring group)', () => {
  it('skips offline and busy members, then goes to the no-answer destination', () => {
    const config = tenant(dest('group', 1), { ringGroups: [ringGroup(1, ['101', '102', '103'], { ring_time: 25, destination: dest('voicmail', '103') })] });
    const p = plan(config, { registered: ['101', '102'], busy: ['102'] });
    expect(p.steps[0]).toMatchObject({ kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 25 }], timeout: 25, source: { type: 'group', id: '1', name: 'Nhóm 1' } });
    expect(p.steps[1]).toMatchObject({ kind: 'voicemail', mailbox: '103' });
    expect(route(p)).toEqual(['inbound:1', 'group:1', 'voicmail:103']);
  });

  it('nobody available: straight to the destination; none set: hang up', () => {
    const config = tenant(dest('group', 1), { ringGroups: [ringGroup(1, ['101'])] });
    expect(kinds(plan(config, { registered: [] }))).toEqual(['hangup']);
  });
});

describe('fw (forward to an external number)', () => {
  it('goes out through the matching outbound rule', () => {
    const p = plan(tenant(dest('fw', '0987654321')));
    expect(p.steps).toEqual([{ kind: 'forward', number: '0987654321', dialled: '0987654321', trunk: 'viettel', switchboards: [1], callerId: DID, ruleId: 1, source: { type: 'fw', id: '0987654321', name: '0987654321' } }]);
  });

  it('no rule for the number: 404', () => {
    expect(plan(tenant(dest('fw', '0287654321'))).steps[0]).toMatchObject({ kind: 'reject', code: 404, reason: 'no_route' });
  });
});

describe('msg (notification)', () => {
  it('plays the announcement, then continues to its destination', () => {
    const p = plan(tenant(dest('msg', 1), { notifications: [notification(1, 2, dest('direct', '101'))] }));
    expect(p.steps[0]).toEqual({ kind: 'play', audioIds: [2], source: { type: 'msg', id: '1', name: 'Thông báo 1' } });
    expect(kinds(p)).toEqual(['play', 'ring', 'hangup']);
  });

  it('without a destination the call ends after the announcement', () => {
    expect(kinds(plan(tenant(dest('msg', 1), { notifications: [notification(1, 2)] })))).toEqual(['play', 'hangup']);
  });
});

describe('time (time condition)', () => {
  const config = tenant(dest('time', 1), { timeGroups: [officeHours(1)], timeConditions: [timeCondition(1, 1, dest('direct', '101'), dest('direct', '102'))] });

  it('matched in office hours, otherwise the other branch; the CDR route says which', () => {
    const day = plan(config, all, vn('2025-03-05 10:00'));
    expect(day.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '101' }] });
    expect(day.route[1]).toEqual({ type: 'time', id: '1', name: 'Điều kiện 1', branch: 'matched' });
    const night = plan(config, all, vn('2025-03-05 17:00'));
    expect(night.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '102' }] });
    expect(night.route[1].branch).toBe('unmatched');
  });

  it('a temporary override applies until override_until, a permanent one always', () => {
    const temp = { ...config, timeConditions: [timeCondition(1, 1, dest('direct', '101'), dest('direct', '102'), { override: 'temp_unmatched', override_until: vn('2025-03-05 17:00').toISOString() })] };
    expect(plan(temp, all, vn('2025-03-05 16:59')).route[1].branch).toBe('unmatched');
    expect(plan(temp, all, vn('2025-03-05 17:00')).route[1].branch).toBe('unmatched'); // schedule: closed at 17:00
    expect(plan(temp, all, vn('2025-03-06 09:00')).route[1].branch).toBe('matched'); // expired
    const perm = { ...config, timeConditions: [timeCondition(1, 1, dest('direct', '101'), dest('direct', '102'), { override: 'perm_matched' })] };
    expect(plan(perm, all, vn('2025-03-09 03:00')).route[1].branch).toBe('matched');
  });

  it('evaluates in the condition time zone', () => {
    const utc = { ...config, timeConditions: [timeCondition(1, 1, dest('direct', '101'), dest('direct', '102'), { timezone: 'UTC' })] };
    expect(plan(utc, all, vn('2025-03-05 09:00')).route[1].branch).toBe('unmatched'); // 02:00 UTC
    expect(plan(config, all, vn('2025-03-05 09:00')).route[1].branch).toBe('matched');
  });
});

describe('time condition on public holidays (issue 39): "office hours, closed on Tết"', () => {
  // The holidays as the API's snapshot carries them: computed (Tết 2026 16–20/02, Tết 2027 05–09/02) with the tenant's overrides.
  const holidays = (overrides: Parameters<typeof applyOverrides>[1] = []) => [2026, 2027].flatMap((y) => daysInForce(applyOverrides(computedHolidays(y), overrides)));
  const office = timeGroup(1, officeHours(1).ranges, { name: 'Giờ làm việc', holiday_mode: 'exclude' });
  // matched → the office (101), unmatched → the closed branch (102, e.g. a closed-message IVR).
  const config = (more: Partial<PbxConfig> = {}) => tenant(dest('time', 1), { timeGroups: [office], timeConditions: [timeCondition(1, 1, dest('direct', '101'), dest('direct', '102'))], holidays: holidays(), ...more });
  const branch = (c: PbxConfig, wall: string) => {
    const p = plan(c, all, vn(wall));
    return [p.route[1].branch, p.steps[0].kind === 'ring' ? p.steps[0].targets[0].extension : p.steps[0].kind];
  };

  it('a call at 10:00 on a weekday of Tết goes to the closed branch; the day after Tết, to the office', () => {
    expect(branch(config(), '2026-02-17 10:00')).toEqual(['unmatched', '102']); // Tuesday, mùng 1 Tết Bính Ngọ
    expect(branch(config(), '2027-02-08 10:00')).toEqual(['unmatched', '102']); // Monday, mùng 3 Tết Đinh Mùi
    expect(branch(config(), '2027-02-10 10:00')).toEqual(['matched', '101']); // Wednesday, the day after mùng 4
    expect(branch(config(), '2026-02-13 10:00')).toEqual(['matched', '101']); // Friday before Tết
  });

  it("the tenant's overrides: a compensating day added is closed, a day removed is open", () => {
    const c = config({ holidays: holidays([{ id: 1, date: '2026-02-23', action: 'add', name: 'Nghỉ bù' }, { id: 2, date: '2027-02-09', action: 'remove', name: '' }]) });
    expect(branch(c, '2026-02-23 10:00')).toEqual(['unmatched', '102']);
    expect(branch(c, '2027-02-09 10:00')).toEqual(['matched', '101']);
    expect(branch(config(), '2027-02-09 10:00')).toEqual(['unmatched', '102']);
  });

  it('a "Ngày lễ" group (holidays only) sends the call to its branch on Tết, day and night', () => {
    const c = config({ timeGroups: [timeGroup(1, [], { name: 'Ngày lễ', holiday_mode: 'include' })] });
    expect(branch(c, '2026-02-18 03:00')).toEqual(['matched', '101']);
    expect(branch(c, '2026-02-21 10:00')).toEqual(['unmatched', '102']);
  });
});

describe('voicmail / voicemaill', () => {
  it("voicmail leaves a message in the extension's mailbox", () => {
    expect(plan(tenant(dest('voicmail', '102'))).steps).toEqual([{ kind: 'voicemail', mailbox: '102', source: { type: 'voicmail', id: '102', name: '102 - NV 102' } }]);
  });
  it("voicemaill leaves it in the ring group's shared mailbox", () => {
    const p = plan(tenant(dest('voicemaill', 1), { ringGroups: [ringGroup(1, ['101'], { name: 'Kinh doanh' })] }));
    expect(p.steps).toEqual([{ kind: 'voicemail', mailbox: 'group-1', source: { type: 'voicemaill', id: '1', name: 'Kinh doanh' } }]);
  });
});

describe('queue', () => {
  const config = tenant(dest('queue', 1), { queues: [queue(1, ['101', '102', '103'], { join_greeting_id: 1, moh_class: 'jazz', timeout_destination: dest('voicmail', '101') })] });

  it('ends the static plan with the queue step, agents and their state', () => {
    const p = plan(config, { registered: ['101', '102'], busy: ['102'] });
    expect(p.steps).toEqual([
      {
        kind: 'queue',
        queueId: 1,
        strategy: 'ringall',
        ring: 'parallel',
        agents: [
          { extension: '101', state: 'available' },
          { extension: '102', state: 'busy' },
          { extension: '103', state: 'offline' },
        ],
        agent_timeout: 15,
        max_wait: 300,
        moh_class: 'jazz',
        join_greeting_id: 1,
        memoryKey: 'queue:1',
        timeout_destination: dest('voicmail', '101'),
        source: { type: 'queue', id: '1', name: 'Hàng đợi 1' },
      },
    ]);
    expect(p.interactive).toBe(true);
  });

  it('with no agent logged in the caller goes straight to the timeout destination', () => {
    expect(kinds(plan(config, { registered: [] }))).toEqual(['voicemail']);
  });
});

describe('lastcall', () => {
  const config = tenant(dest('lastcall', 1), { lastCalls: [lastCall(1, dest('direct', '103'), { days: 7, ring_time: 12 })] });
  const at = vn('2025-03-05 10:00');
  const last = (days: number, ext = '102') => ({ [CALLER]: { extension: ext, at: new Date(at.getTime() - days * 86_400_000) } });

  it('rings the agent who last talked with the caller within N days, then the fallback', () => {
    const p = plan(config, { ...all, last: last(6.9) }, at);
    expect(p.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '102', timeout: 12 }], timeout: 12, source: { type: 'lastcall', id: '1' } });
    expect(p.steps[1]).toMatchObject({ kind: 'ring', targets: [{ extension: '103' }] });
  });

  it('too long ago, unknown caller or agent unavailable: the fallback only', () => {
    expect(plan(config, { ...all, last: last(7.1) }, at).steps[0]).toMatchObject({ targets: [{ extension: '103' }] });
    expect(plan(config, all, at).steps[0]).toMatchObject({ targets: [{ extension: '103' }] });
    expect(plan(config, { ...all, busy: ['102'], last: last(1) }, at).steps[0]).toMatchObject({ targets: [{ extension: '103' }] });
  });

  it('finds the caller whatever form the carrier sends the number in', () => {
    const p = planCall(config, inboundCall('+84912345678', DID, at), liveState({ ...all, last: last(1) }));
    expect(p.steps[0]).toMatchObject({ targets: [{ extension: '102' }] });
  });
});

describe('ivr', () => {
  const menu = ivr(1, {
    name: 'Menu chính',
    greeting_id: 2,
    entries: [{ digit: '1', destination: dest('direct', '101') }, { digit: '9', destination: dest('ivr', 1) }],
    timeout: 7,
    invalid_retries: 2,
    timeout_destination: dest('group', 1),
    invalid_destination: null,
    direct_dial: true,
  });
  const config = tenant(dest('ivr', 1), { ivrs: [menu], ringGroups: [ringGroup(1, ['101', '102'])] });

  it('ends the static plan with the IVR step', () => {
    const p = plan(config);
    expect(p.steps).toEqual([
      {
        kind: 'ivr',
        ivrId: 1,
        greetingId: 2,
        timeout: 7,
        retries: 2,
        entries: menu.entries,
        direct_dial: true,
        timeout_destination: dest('group', 1),
        invalid_destination: null,
        source: { type: 'ivr', id: '1', name: 'Menu chính' },
      },
    ]);
    expect(p.interactive).toBe(true);
  });

  it('resolveDestination continues from a digit, a timeout or a dialled extension', () => {
    const call = inboundCall(CALLER, DID);
    const state = liveState(all);
    expect(resolveDestination(config, dest('direct', '101'), call, state).steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '101' }] });
    expect(resolveDestination(config, dest('ivr', 1), call, state).steps[0]).toMatchObject({ kind: 'ivr', ivrId: 1 });
    const timeout = resolveDestination(config, dest('group', 1), call, state);
    expect(timeout.steps[0]).toMatchObject({ kind: 'ring', targets: [{ extension: '101' }, { extension: '102' }] });
    expect(timeout.route).toEqual([{ type: 'group', id: '1', name: 'Nhóm 1' }]);
    expect(kinds(resolveDestination(config, null, call, state))).toEqual(['hangup']);
  });
});

describe('dangling destinations', () => {
  it.each([
    ['ivr', '9'],
    ['group', '9'],
    ['msg', '9'],
    ['time', '9'],
    ['queue', '9'],
    ['lastcall', '9'],
    ['voicemaill', '9'],
  ] as const)('%s pointing at a deleted object → 404', (type, target) => {
    const p = plan(tenant(dest(type, target)));
    expect(p.steps).toEqual([{ kind: 'reject', code: 404, reason: 'missing_destination', message: 'Điểm đến không tồn tại' }]);
    expect(route(p)).toEqual(['inbound:1']);
  });

  it('a deleted object further down the chain ends the plan there, after what could run', () => {
    const p = plan(tenant(dest('group', 1), { ringGroups: [ringGroup(1, ['101'], { destination: dest('queue', 42) })] }));
    expect(kinds(p)).toEqual(['ring', 'reject']);
  });
});
