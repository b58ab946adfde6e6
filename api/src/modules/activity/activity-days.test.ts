import { dayFigures, periodsOf, union } from './activity-days';
import type { ActivityEventRow } from './activity.repository';

const at = (local: string) => new Date(`${local}+07:00`);
const ev = (kind: ActivityEventRow['kind'], local: string, o: Partial<ActivityEventRow> = {}): ActivityEventRow => ({
  user_id: 1, at: at(local), kind, status: null, extension: null, session_id: null, reason: '', ...o,
});
const day = (d: string) => [at(`${d}T00:00:00`).getTime(), at(`${d}T00:00:00`).getTime() + 86_400_000] as const;

describe('activity periods and days', () => {
  it('joins two browsers logged in at once into one presence', () => {
    expect(union([{ from: 0, to: 10 }, { from: 5, to: 20 }, { from: 30, to: 40 }])).toEqual([{ from: 0, to: 20 }, { from: 30, to: 40 }]);
  });

  it('ends a session without logout where the server saw it end, and counts status time only while logged in', () => {
    const events = [
      ev('login', '2026-02-10T08:00:00', { session_id: 's1', status: 1 }),
      ev('status', '2026-02-10T09:00:00', { status: 2 }),
      ev('login', '2026-02-10T13:00:00', { session_id: 's2', status: 2 }),
      ev('logout', '2026-02-10T14:00:00', { session_id: 's2' }),
    ];
    const now = at('2026-02-12T00:00:00').getTime();
    const p = periodsOf(events, new Map([['s1', at('2026-02-10T10:00:00')]]), now);
    expect(p.sessions.map((s) => s.end)).toEqual(['expired', 'logout']);
    const f = dayFigures(p, events, ...day('2026-02-10'));
    // 08–09 ready, 09–10 paused (session 1 expired at 10), 13–14 paused; nothing while logged out.
    expect(f.status_sec).toEqual({ 1: 3600, 2: 7200, 3: 0 });
    expect(f.last_logout).toBe(at('2026-02-10T14:00:00').toISOString());
    expect(f.status_changes).toBe(1);
  });

  it('keeps a registration open until it ends, repeated "registered" reports being one period, and clips it to each day', () => {
    const events = [
      ev('registered', '2026-02-10T22:00:00', { extension: '101' }),
      ev('registered', '2026-02-11T01:00:00', { extension: '101' }), // after an API restart
      ev('unregistered', '2026-02-11T02:00:00', { extension: '101', reason: 'expired' }),
    ];
    const p = periodsOf(events, new Map(), at('2026-02-12T00:00:00').getTime());
    expect(p.registered).toHaveLength(1);
    expect(dayFigures(p, events, ...day('2026-02-10')).registered_sec).toBe(2 * 3600);
    expect(dayFigures(p, events, ...day('2026-02-11')).registered_sec).toBe(2 * 3600);
    expect(dayFigures(p, events, ...day('2026-02-12')).active).toBe(false);
  });

  it('counts a period still going up to now only', () => {
    const events = [ev('login', '2026-02-10T08:00:00', { session_id: 's', status: 3 })];
    const now = at('2026-02-10T08:30:00').getTime();
    const p = periodsOf(events, new Map(), now);
    expect(p.sessions[0]).toMatchObject({ open: true, end: null });
    expect(dayFigures(p, events, day('2026-02-10')[0], now).status_sec[3]).toBe(1800);
  });
});
