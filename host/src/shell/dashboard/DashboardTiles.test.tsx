import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { MonitorSnapshot, SeriesPointRow } from '@tongdai/contracts';
import { monitorFixture } from '@tongdai/testkit/monitor-fixture';
import { DashboardTiles } from './DashboardTiles';
import { hourlyComparison } from './dashboard.api';

/** The server's clock at 10 s of the fixture's, whatever the time the render takes (a loaded machine, modules loaded on first use). */
const NOW = 1_764_000_000_000;
const show = (s: MonitorSnapshot, monitor = true) =>
  render(<MemoryRouter><DashboardTiles data={{ ...s, offset: 10_000 - NOW }} monitor={monitor} /></MemoryRouter>);
const text = (id: string) => screen.getByTestId(id).textContent;

describe('DashboardTiles', () => {
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
  afterEach(() => jest.restoreAllMocks());

  it("today's calls, agents online, callers waiting; each tile opens its report or the wall", () => {
    show(monitorFixture());
    expect([text('dash-calls-value'), text('dash-calls-in'), text('dash-calls-out'), text('dash-answered'), text('dash-missed')]).toEqual(['20', '12', '6', '15', '4']);
    expect(screen.getByTestId('dash-calls').textContent).toContain('Cuộc gọi hôm nay');
    expect(text('dash-online-value')).toBe('2 / 3');
    expect(text('dash-waiting-value')).toBe('1');
    expect(text('dash-longest')).toBe('00:05');
    expect(screen.getByTestId('dash-calls-link').getAttribute('href')).toBe('/call-history');
    expect(screen.getByTestId('dash-online-link').getAttribute('href')).toBe('/monitor');
    expect(screen.getByTestId('dash-waiting-link').getAttribute('href')).toBe('/monitor');
  });

  it("today's CSAT: the mean score of the calls rated today and their count, opening the agents' report; no tile when none was rated", () => {
    show(monitorFixture());
    expect([text('dash-csat-value'), text('dash-csat-count')]).toEqual(['4,3', '3']);
    expect(screen.getByTestId('dash-csat').textContent).toContain('Hài lòng (CSAT) hôm nay');
    expect(screen.getByTestId('dash-csat-link').getAttribute('href')).toBe('/history-cdr-by-exten');
    cleanup();
    const none = monitorFixture();
    show({ ...none, today: { ...none.today, csat_count: 0, csat_avg: null } });
    expect(screen.queryByTestId('dash-csat')).toBeNull();
  });

  it("an agent sees their own figures; without monitor.view the tiles open the reports", () => {
    show(monitorFixture({ scope: 'own', queues: [] }), false);
    expect(screen.getByTestId('dash-calls').textContent).toContain('Cuộc gọi của bạn hôm nay');
    expect(screen.queryByTestId('dash-online')).toBeNull();
    expect(screen.queryByTestId('dash-waiting')).toBeNull();
    // Their line: the call they are in, the other party, its running duration.
    expect(text('dash-me-state')).toBe('Đang đàm thoại · 0987654321');
    expect(text('dash-me-value')).toBe('00:06');
    expect(text('dash-me-handled')).toBe('5');
    cleanup();
    // Idle: the tile names their extension (issue 30: it said "—").
    const idle = monitorFixture({ scope: 'own', queues: [] });
    show({ ...idle, agents: [{ ...idle.agents[0], call_id: null }] }, false);
    expect(text('dash-me-value')).toBe(idle.agents[0].extension);
    expect(text('dash-me-state')).toBe('Rảnh');
    cleanup();
    show(monitorFixture(), false);
    expect(screen.getByTestId('dash-online-link').getAttribute('href')).toBe('/history-cdr-by-exten');
  });
});

describe('hourlyComparison', () => {
  const point = (iso: string, calls: number) => ({ at: iso, calls }) as SeriesPointRow;
  it('maps buckets to Vietnam hours; today stops at the current hour, last week has 24', () => {
    // 09:00 and 10:00 Vietnam time = 02:00 and 03:00 UTC; now 10:30 Vietnam time.
    const r = hourlyComparison([point('2026-11-23T02:00:00.000Z', 4), point('2026-11-23T03:00:00.000Z', 2)], [point('2026-11-16T02:00:00.000Z', 7)], Date.parse('2026-11-23T03:30:00Z'));
    expect(r.today).toHaveLength(11);
    expect(r.today.slice(8)).toEqual([{ x: 8, y: 0 }, { x: 9, y: 4 }, { x: 10, y: 2 }]);
    expect(r.lastWeek).toHaveLength(24);
    expect(r.lastWeek[9]).toEqual({ x: 9, y: 7 });
  });
});
