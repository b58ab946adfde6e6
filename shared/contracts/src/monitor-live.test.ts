import { ACTIVITY_STATUSES } from './settings';
import { activityLabel, applyLiveEvent, catchUp, includesEvent, longestWait, needsSnapshot, queueTone, type LiveEvent } from './monitor-live';
import { monitorFixture } from '../../testkit/src/monitor-fixture';

const pbx = (e: Record<string, unknown>) => ({ kind: 'tongdai.pbx-call', version: 1, at: 10_000, ...e }) as LiveEvent;
const mon = (e: Record<string, unknown>) => ({ kind: 'tongdai.monitor', version: 1, at: 10_000, ...e }) as LiveEvent;

describe('applyLiveEvent: a carrier call waits in a queue, 102 answers, hangs up', () => {
  it('moves the wall as the call moves', () => {
    let s = monitorFixture();
    s = applyLiveEvent(s, mon({ type: 'queued', callId: 'c9', queueId: 7, caller: '0901234567', at: 20_000 }));
    expect(s.queues[0].waiting.map((w) => w.call_id)).toEqual(['c1', 'c9']);
    expect(s.calls.find((c) => c.call_id === 'c9')).toMatchObject({ state: 'queued', queue_id: 7, queued_at: 20_000 });
    // The media worker answers to play the queue's music: still waiting.
    s = applyLiveEvent(s, pbx({ type: 'answered', callId: 'c9', extension: null, at: 20_100 }));
    expect(s.calls.find((c) => c.call_id === 'c9')?.state).toBe('queued');

    // The queue rings 102 on a leg of its own: the wall keeps showing the caller's call.
    s = applyLiveEvent(s, pbx({ type: 'ringing', callId: 'c9-leg', caller: '0901234567', callee: '102', extensions: ['102'], at: 21_000 }));
    expect(s.calls.some((c) => c.call_id === 'c9-leg')).toBe(false);
    expect(s.calls.find((c) => c.call_id === 'c9')).toMatchObject({ state: 'queued', ringing: ['102'] });
    expect(s.agents.find((a) => a.extension === '102')?.call_id).toBe('c9');

    s = applyLiveEvent(s, pbx({ type: 'answered', callId: 'c9', extension: '102', at: 25_000 }));
    expect(s.calls.find((c) => c.call_id === 'c9')).toMatchObject({ state: 'talking', extension: '102', answered_at: 25_000, ringing: [] });
    expect(s.queues[0].waiting.map((w) => w.call_id)).toEqual(['c1']);
    expect(s.queues[0]).toMatchObject({ agents_busy: 2, agents_free: 0 });

    s = applyLiveEvent(s, pbx({ type: 'ended', callId: 'c9', disposition: 'ANSWERED', extension: '102', at: 40_000 }));
    expect(s.calls.some((c) => c.call_id === 'c9')).toBe(false);
    expect(s.agents.find((a) => a.extension === '102')).toMatchObject({ call_id: null, handled_today: 4 });
    expect(s.queues[0]).toMatchObject({ agents_busy: 1, agents_free: 1, today: { offered: 11, answered: 9, abandoned: 1 } });
    expect(s.today).toMatchObject({ calls: 21, calls_in: 13, answered: 16 });
  });

  it('a caller who gives up leaves the queue and counts as abandoned', () => {
    const s = applyLiveEvent(monitorFixture(), pbx({ type: 'ended', callId: 'c1', disposition: 'NO ANSWER', extension: null }));
    expect(s.queues[0].waiting).toEqual([]);
    expect(s.queues[0].today).toMatchObject({ offered: 11, abandoned: 2 });
    expect(s.today).toMatchObject({ calls: 21, missed: 5 });
  });

  it('a ring stops at the agents it did not reach once another answers', () => {
    let s = applyLiveEvent(monitorFixture(), pbx({ type: 'ringing', callId: 'c5', caller: '0909', callee: '101', extensions: ['102', '103'] }));
    expect(s.calls.find((c) => c.call_id === 'c5')).toMatchObject({ direction: 'inbound', state: 'ringing' });
    s = applyLiveEvent(s, pbx({ type: 'answered', callId: 'c5', extension: '103' }));
    expect(s.agents.filter((a) => a.call_id === 'c5').map((a) => a.extension)).toEqual(['103']);
  });

  it('an internal call: both agents are in it, both talk once answered', () => {
    let s = applyLiveEvent(monitorFixture(), pbx({ type: 'ringing', callId: 'i1', caller: '102', callee: '103', extensions: ['103'] }));
    expect(s.calls.find((c) => c.call_id === 'i1')).toMatchObject({ direction: 'internal', caller_extension: '102' });
    expect(s.agents.map((a) => a.call_id)).toEqual(['c2', 'i1', 'i1']);
    s = applyLiveEvent(s, pbx({ type: 'ended', callId: 'i1', disposition: 'NO ANSWER', extension: null }));
    expect(s.agents.map((a) => a.call_id)).toEqual(['c2', null, null]);
  });

  it('registration and activity change the agent they name only', () => {
    let s = applyLiveEvent(monitorFixture(), mon({ type: 'registration', extension: '103', registered: true }));
    s = applyLiveEvent(s, mon({ type: 'activity', extension: null, userId: 2, status_activity: 3 }));
    expect(s.agents.map((a) => [a.extension, a.registered, a.status_activity])).toEqual([['101', true, 1], ['102', true, 3], ['103', true, null]]);
  });

  it('an event of a call outside the snapshot leaves the figures alone', () => {
    const before = monitorFixture();
    const s = applyLiveEvent(before, pbx({ type: 'ended', callId: 'x', disposition: 'ANSWERED', extension: '999' }));
    expect(s.today).toEqual(before.today);
    expect(needsSnapshot(before, pbx({ type: 'ended', callId: 'c2', disposition: 'ANSWERED', extension: '101' }))).toBe(true);
    expect(needsSnapshot(before, pbx({ type: 'answered', callId: 'c1', extension: '102' }))).toBe(false);
    expect(needsSnapshot(before, pbx({ type: 'ringing', callId: 'new', caller: '101', callee: '102', extensions: ['102'] }))).toBe(true);
    expect(needsSnapshot(before, mon({ type: 'registration', extension: '103', registered: true }))).toBe(false);
  });
});

describe('applyLiveEvent on a state that already includes the event (a snapshot newer than its position, an event the channel did not number)', () => {
  const queued = mon({ type: 'queued', callId: 'c9', queueId: 7, caller: '0901234567', at: 20_000 });
  const ringing = pbx({ type: 'ringing', callId: 'c9', caller: '0901234567', callee: '102', extensions: ['102'], at: 21_000 });
  const answered = pbx({ type: 'answered', callId: 'c9', extension: '102', at: 25_000 });
  const ended = pbx({ type: 'ended', callId: 'c9', disposition: 'ANSWERED', extension: '102', at: 40_000 });

  it.each([
    ['queued', [queued]],
    ['ringing', [queued, ringing]],
    ['answered', [queued, ringing, answered]],
    ['ended', [queued, ringing, answered, ended]],
    ['registration', [mon({ type: 'registration', extension: '103', registered: true })]],
    ['activity', [mon({ type: 'activity', extension: '102', userId: 2, status_activity: 3 })]],
  ])('%s applied twice is applied once', (_, events) => {
    const once = events.reduce(applyLiveEvent, monitorFixture());
    expect(applyLiveEvent(once, events.at(-1)!)).toEqual(once);
  });

  it('a ring of a call already held is that call, not a second one', () => {
    const s = applyLiveEvent(applyLiveEvent(monitorFixture(), ringing), ringing);
    expect(s.calls.filter((c) => c.call_id === 'c9')).toHaveLength(1);
  });

  it('a ring the state went past (the call is talking) does not ring again', () => {
    const talking = [ringing, pbx({ type: 'ringing', callId: 'c9', caller: '0901234567', callee: '102', extensions: ['102', '103'], at: 21_000 }), answered].reduce(applyLiveEvent, monitorFixture());
    const s = applyLiveEvent(talking, pbx({ type: 'ringing', callId: 'c9', caller: '0901234567', callee: '102', extensions: ['102', '103'], at: 21_000 }));
    expect(s).toEqual(talking);
    expect(s.agents.find((a) => a.extension === '103')?.call_id).toBeNull();
  });

  it('an answer of a call already talking counts its agent busy once', () => {
    const wide = monitorFixture();
    wide.queues[0] = { ...wide.queues[0], agents_total: 5, agents_free: 4, agents_busy: 1 };
    const once = [queued, ringing, answered].reduce(applyLiveEvent, wide);
    expect(once.queues[0]).toMatchObject({ agents_busy: 2, agents_free: 3 });
    expect(applyLiveEvent(once, answered).queues[0]).toMatchObject({ agents_busy: 2, agents_free: 3 });
  });

  it('the end of a call the state does not hold changes nothing: its figures are in already', () => {
    // The snapshot was read after c2 (101's call) ended and was recorded: 101 is free, counted.
    const after = monitorFixture({ calls: monitorFixture().calls.filter((c) => c.call_id !== 'c2') });
    after.agents[0] = { ...after.agents[0], call_id: null, handled_today: 6 };
    expect(applyLiveEvent(after, pbx({ type: 'ended', callId: 'c2', disposition: 'ANSWERED', extension: '101' }))).toEqual(after);
  });
});

describe('catchUp: a snapshot and the events heard while it was asked for', () => {
  const ring = (callId: string, seq?: number) => pbx({ type: 'ringing', callId, caller: `0909${callId}`, callee: '102', extensions: ['102'], ...(seq !== undefined && { seq }) });

  it('applies the events after its position, not those it includes, and moves its position', () => {
    const s = catchUp(monitorFixture({ seq: 5 }), [ring('old', 4), ring('same', 5), ring('new', 6)]);
    expect(s.calls.map((c) => c.call_id)).toEqual(['c1', 'c2', 'new']);
    expect(s.seq).toBe(6);
    expect(includesEvent(s, ring('new', 6))).toBe(true);
    expect(includesEvent(s, ring('next', 7))).toBe(false);
  });

  it('applies every event when the snapshot or the event has no position', () => {
    expect(catchUp(monitorFixture(), [ring('a', 4), ring('b')]).calls.map((c) => c.call_id)).toEqual(['c1', 'c2', 'a', 'b']);
    const s = catchUp(monitorFixture({ seq: 5 }), [ring('a')]);
    expect(s.calls.map((c) => c.call_id)).toEqual(['c1', 'c2', 'a']);
    expect(s.seq).toBe(5);
  });
});

describe('queue tiles and labels', () => {
  it('colours by the longest wait against the queue thresholds', () => {
    const q = monitorFixture().queues[0]; // c1 waits since 5 000; amber 30 s, red 60 s
    expect(longestWait(q, 20_000)).toBe(15);
    expect(queueTone(q, 20_000)).toBe('green');
    expect(queueTone(q, 35_000)).toBe('amber');
    expect(queueTone(q, 65_000)).toBe('red');
    expect(queueTone({ ...q, waiting: [] }, 999_999)).toBe('green');
  });

  it('says the activity status in the settings screen words; 3 stops the phone', () => {
    expect(activityLabel(3)).toBe(ACTIVITY_STATUSES[2].label);
    expect(activityLabel(3)).toBe('Ngừng nhận cuộc gọi');
    expect(activityLabel(null)).toBe('—');
  });
});

describe('applyLiveEvent: an agent calling the PBX itself (issue 16)', () => {
  it('a supervisor\'s code or a mailbox is talking once the worker answers; a call to an IVR or a queue code waits for an agent', () => {
    let s = monitorFixture();
    s = applyLiveEvent(s, pbx({ type: 'ringing', callId: 's1', caller: '101', callee: '*222102', extensions: [], at: 30_000 }));
    s = applyLiveEvent(s, pbx({ type: 'ringing', callId: 's2', caller: '101', callee: '*413', extensions: [], at: 30_000 }));
    s = applyLiveEvent(s, pbx({ type: 'answered', callId: 's1', extension: null, at: 30_200 }));
    s = applyLiveEvent(s, pbx({ type: 'answered', callId: 's2', extension: null, at: 30_200 }));
    expect(s.calls.find((c) => c.call_id === 's1')).toMatchObject({ state: 'talking', answered_at: 30_200, extension: null, caller_extension: '101', direction: 'internal' });
    expect(s.calls.find((c) => c.call_id === 's2')).toMatchObject({ state: 'ringing', answered_at: null });
  });
});
