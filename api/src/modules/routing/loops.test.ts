import { findLoop, describeLoop } from './loops';
import { planCall } from './plan';
import { dest, extension, inbound, inboundCall, ivr, liveState, notification, officeHours, pbxConfig, queue, ringGroup, timeCondition, audio } from '@tongdai/testkit/routing-factory';

const menu = (more: Parameters<typeof ivr>[1] = {}) => ivr(3, { name: 'Menu chính', ...more });
const office = (matched = dest('direct', '101'), unmatched = dest('ivr', 3)) =>
  timeCondition(5, 1, matched, unmatched, { name: 'Giờ hành chính' });

describe('findLoop', () => {
  it('IVR timeout → time condition → IVR', () => {
    const config = pbxConfig({ extensions: [extension('101')], timeGroups: [officeHours(1)], ivrs: [menu({ timeout_destination: dest('time', 5) })], timeConditions: [office()] });
    const loop = findLoop(config);
    expect(loop?.nodes.map((n) => `${n.type}:${n.id}`)).toEqual(['ivr:3', 'time:5']);
    expect(describeLoop(loop!)).toBe('IVR "Menu chính" → Điều kiện thời gian "Giờ hành chính" → IVR "Menu chính"');
  });

  it('starts the description at the object being saved', () => {
    const config = pbxConfig({ extensions: [extension('101')], timeGroups: [officeHours(1)], ivrs: [menu({ invalid_destination: dest('time', 5) })], timeConditions: [office()] });
    expect(describeLoop(findLoop(config, { type: 'time', id: 5 })!)).toBe('Điều kiện thời gian "Giờ hành chính" → IVR "Menu chính" → Điều kiện thời gian "Giờ hành chính"');
  });

  it('a ring group whose no-answer destination is itself', () => {
    const config = pbxConfig({ extensions: [extension('101')], ringGroups: [ringGroup(7, ['101'], { name: 'Kinh doanh', destination: dest('group', 7) })] });
    expect(describeLoop(findLoop(config)!)).toBe('Nhóm đổ chuông "Kinh doanh" → Nhóm đổ chuông "Kinh doanh"');
  });

  it('a three-object cycle: ring group → queue → notification → ring group', () => {
    const config = pbxConfig({
      extensions: [extension('101')],
      audio: [audio(1)],
      ringGroups: [ringGroup(1, ['101'], { name: 'A', destination: dest('queue', 2) })],
      queues: [queue(2, ['101'], { name: 'B', timeout_destination: dest('msg', 3) })],
      notifications: [notification(3, 1, dest('group', 1), { name: 'C' })],
    });
    expect(describeLoop(findLoop(config)!)).toBe('Nhóm đổ chuông "A" → Hàng đợi "B" → Thông báo "C" → Nhóm đổ chuông "A"');
  });

  it('an IVR digit back to the same IVR is a caller choice, not a loop', () => {
    const config = pbxConfig({ ivrs: [menu({ entries: [{ digit: '9', destination: dest('ivr', 3) }], timeout_destination: dest('direct', '101') })], extensions: [extension('101')] });
    expect(findLoop(config)).toBeNull();
  });

  it('chains that end in leaves or in deleted objects are not loops', () => {
    const config = pbxConfig({
      extensions: [extension('101')],
      timeGroups: [officeHours(1)],
      timeConditions: [office(dest('group', 1), dest('voicmail', '101'))],
      ringGroups: [ringGroup(1, ['101'], { destination: dest('queue', 99) })],
    });
    expect(findLoop(config)).toBeNull();
  });
});

describe('runtime depth cap', () => {
  it('a loop that slipped into a configuration ends the plan with 482 loop, not a hang', () => {
    const config = pbxConfig({
      extensions: [extension('101')],
      numbers: [],
      inbounds: [inbound(1, '02873000001', dest('group', 1))],
      ringGroups: [ringGroup(1, ['101'], { name: 'A', destination: dest('group', 2) }), ringGroup(2, ['101'], { name: 'B', destination: dest('group', 1) })],
    });
    const plan = planCall(config, inboundCall('0912345678', '02873000001'), liveState());
    const last = plan.steps[plan.steps.length - 1];
    expect(last).toMatchObject({ kind: 'reject', code: 482, reason: 'loop' });
    expect(last.kind === 'reject' && last.message).toBe('Cấu hình tạo vòng lặp: Nhóm đổ chuông "A" → Nhóm đổ chuông "B" → Nhóm đổ chuông "A"');
  });

  it('a very long chain of announcements stops at the cap', () => {
    const notes = Array.from({ length: 40 }, (_, i) => notification(i + 1, 1, i < 39 ? dest('msg', i + 2) : null));
    const config = pbxConfig({ audio: [audio(1)], notifications: notes, inbounds: [inbound(1, '02873000001', dest('msg', 1))] });
    const plan = planCall(config, inboundCall('0912345678', '02873000001'), liveState());
    expect(plan.steps.filter((s) => s.kind === 'play')).toHaveLength(32);
    expect(plan.steps[plan.steps.length - 1]).toMatchObject({ kind: 'reject', reason: 'loop' });
  });
});
