import type { ReactElement } from 'react';
import { act, cleanup, render as renderBare, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { applyLiveEvent, type CampaignLive, type LiveEvent, type MonitorSnapshot } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import type { LiveMonitor } from '@tongdai/platform/react';
import { monitorFixture } from '@tongdai/testkit/monitor-fixture';
import { MonitorWall } from './MonitorScreen';
import { agentRows, filterSortAgents } from './agents';
import { callRoute } from './CallsPanel';

// The wall's clock reads server time 10 000 ms at the start of each test.
const render = (ui: ReactElement) => renderBare(ui, { wrapper: ({ children }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider> });
const live = (s: MonitorSnapshot): LiveMonitor => ({ ...s, offset: 10_000 - Date.now() });
const show = (s: MonitorSnapshot, filters: Record<string, string> = {}, wallboard = false) =>
  render(<MonitorWall data={live(s)} filters={filters} wallboard={wallboard} />);
const agent = (ext: string) => screen.getAllByTestId('agent-row').find((r) => r.getAttribute('data-extension') === ext)!;
const text = (el: HTMLElement, id: string) => within(el).getByTestId(id).textContent;

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('MonitorWall', () => {
  it('shows each agent with person, registration, activity, call and handled today; durations tick every second', () => {
    show(monitorFixture());
    const a101 = agent('101');
    expect(within(a101).getByText('Nguyễn Văn An')).toBeTruthy();
    expect(text(a101, 'agent-registration')).toBe('Trực tuyến');
    expect(text(a101, 'agent-activity')).toBe('Sẵn sàng');
    expect(text(a101, 'agent-state')).toBe('Đang đàm thoại');
    expect(text(a101, 'agent-party')).toBe('0987654321');
    expect(text(a101, 'agent-duration')).toBe('00:06'); // answered at 4 s, now 10 s
    expect(text(a101, 'agent-handled')).toBe('5');
    expect(text(agent('103'), 'agent-registration')).toBe('Ngoại tuyến');
    expect(text(agent('103'), 'agent-activity')).toBe('—');
    act(() => jest.advanceTimersByTime(2000));
    expect(text(agent('101'), 'agent-duration')).toBe('00:08');
  });

  it('queue tile: callers waiting with a ticking wait, figures, colour by threshold', () => {
    show(monitorFixture());
    const tile = screen.getByTestId('queue-tile');
    expect(text(tile, 'queue-waiting-count')).toBe('1');
    expect(text(tile, 'queue-caller-wait')).toBe('00:05');
    expect(text(tile, 'queue-longest')).toBe('00:05');
    expect([text(tile, 'queue-free'), text(tile, 'queue-busy'), text(tile, 'queue-offered'), text(tile, 'queue-answered'), text(tile, 'queue-abandoned')]).toEqual(['1', '1', '10', '8', '1']);
    expect(text(tile, 'queue-sl')).toBe('75%');
    expect(within(tile).getByText('Mức phục vụ (20 giây)')).toBeTruthy();
    expect(tile.getAttribute('data-tone')).toBe('green');
    act(() => jest.advanceTimersByTime(26_000)); // waited 31 s: amber at 30 s
    expect(text(tile, 'queue-caller-wait')).toBe('00:31');
    expect(tile.getAttribute('data-tone')).toBe('amber');
  });

  it('queue tile: service level "—" while nothing was offered today (not 0 %)', () => {
    const fixture = monitorFixture();
    const quiet = { ...fixture.queues[0], waiting: [], today: { offered: 0, answered: 0, abandoned: 0, service_level: 0, avg_wait_sec: 0, avg_talk_sec: 0 } };
    show({ ...fixture, queues: [quiet] });
    expect(text(screen.getByTestId('queue-tile'), 'queue-sl')).toBe('—');
  });

  it('live calls with their route IVR → queue → agent', () => {
    show(monitorFixture());
    const rows = screen.getAllByTestId('call-row');
    expect(rows.map((r) => text(r, 'call-state'))).toEqual(['Đang đàm thoại', 'Đang chờ']);
    expect(callRoute(monitorFixture().calls[0])).toEqual(['Lời chào', 'Chăm sóc khách hàng']);
    expect(callRoute(monitorFixture().calls[1])).toEqual(['Chăm sóc khách hàng', '101']);
  });

  it('a call in shows its hotline in national form, whatever form the carrier sent it in (issue 30)', () => {
    const f = monitorFixture();
    show({ ...f, calls: [{ ...f.calls[0], callee: '842873001234', did: null }, { ...f.calls[1], callee: '842873001234', did: '02873001234' }] });
    expect(screen.getAllByTestId('call-callee').map((c) => c.textContent)).toEqual(['02873001234', '02873001234']);
  });

  it('follows events: 102 answers the waiting caller, then hangs up', () => {
    const ev = (e: Record<string, unknown>) => ({ kind: 'tongdai.pbx-call', version: 1, at: 10_000, ...e }) as LiveEvent;
    let s = applyLiveEvent(monitorFixture(), ev({ type: 'answered', callId: 'c1', extension: '102' }));
    const { rerender } = show(s);
    expect(text(agent('102'), 'agent-state')).toBe('Đang đàm thoại');
    expect(text(agent('102'), 'agent-party')).toBe('0912345678');
    expect(text(screen.getByTestId('queue-tile'), 'queue-waiting-count')).toBe('0');
    s = applyLiveEvent(s, ev({ type: 'ended', callId: 'c1', disposition: 'ANSWERED', extension: '102' }));
    rerender(<MonitorWall data={live(s)} filters={{}} wallboard={false} />);
    expect(text(agent('102'), 'agent-state')).toBe('Rảnh');
    expect(text(agent('102'), 'agent-handled')).toBe('4');
    expect(text(screen.getByTestId('queue-tile'), 'queue-answered')).toBe('9');
  });

  it('empty wall: Vietnamese empty states', () => {
    show(monitorFixture({ agents: [], queues: [], calls: [] }));
    expect(screen.getAllByTestId('empty-state').map((e) => e.textContent)).toEqual([
      'Chưa có hàng đợi nào', 'Chưa có máy nhánh nào để giám sát', 'Không có cuộc gọi nào đang diễn ra',
    ]);
  });

  it('wallboard: large tiles per agent, no calls table; an agent sees that the wall is their own', () => {
    show(monitorFixture({ scope: 'own' }), {}, true);
    expect(screen.getByTestId('agent-tiles')).toBeTruthy();
    expect(screen.queryByTestId('calls-table')).toBeNull();
    expect(screen.getByTestId('monitor-own-scope').textContent).toBe('Bạn đang xem cuộc gọi của chính mình');
  });

  it("a manager's and a leader's wall says whose it is; the tenant's says nothing", () => {
    show(monitorFixture({ scope: 'department' }));
    expect(screen.getByTestId('monitor-department-scope').textContent).toBe('Bạn đang xem cuộc gọi của phòng ban bạn quản lý');
    cleanup();
    show(monitorFixture({ scope: 'team' }));
    expect(screen.getByTestId('monitor-team-scope').textContent).toBe('Bạn đang xem cuộc gọi của nhóm bạn phụ trách');
    cleanup();
    show(monitorFixture({ scope: 'tenant' }));
    expect(screen.queryByTestId('monitor-tenant-scope')).toBeNull();
  });
});

describe('dialer campaigns on the wall (issue 34)', () => {
  const campaign = (over: Partial<CampaignLive['dialer']> = {}, state: CampaignLive['state'] = 'running'): CampaignLive => ({
    campaign_id: 9, family: 'survey', name: 'Khảo sát sau bán hàng', mode: 'predictive', state,
    dialer: { calling: 4, talking: 7, ready: 9, answered: 120, abandoned: 3, hotline_minute: { cap: 30, started: 12 }, ...over },
  });
  const event = (c: CampaignLive | null): LiveEvent => ({ kind: 'tongdai.monitor', version: 1, at: 10_000, type: 'campaign', campaignId: 9, campaign: c });

  it('none running: no section', () => {
    show(monitorFixture());
    expect(screen.queryByTestId('monitor-campaigns')).toBeNull();
  });

  it('a tile per campaign with its calls now, agents ready, answered, the abandoned rate and the hotline minute; an event moves it, a null one takes it off', () => {
    const start = monitorFixture({ campaigns: [campaign()] });
    const { rerender } = show(start);
    const tile = screen.getByTestId('campaign-tile');
    expect(within(tile).getByText('Khảo sát sau bán hàng')).toBeTruthy();
    expect([text(tile, 'campaign-mode'), text(tile, 'campaign-calling'), text(tile, 'campaign-talking'), text(tile, 'campaign-ready')]).toEqual(['Dự đoán', '4', '7', '9']);
    expect([text(tile, 'campaign-answered'), text(tile, 'campaign-abandoned'), text(tile, 'campaign-hotline-minute')]).toEqual(['120', '2,5% (3)', '12/30']);
    expect(tile.getAttribute('data-tone')).toBe('amber');
    // One more abandoned call: 4 of 121, over the regulators' 3 %.
    const worse = applyLiveEvent(start, event(campaign({ answered: 121, abandoned: 4, calling: 3 })));
    rerender(<MonitorWall data={live(worse)} filters={{}} wallboard={false} />);
    expect([text(screen.getByTestId('campaign-tile'), 'campaign-abandoned'), screen.getByTestId('campaign-tile').getAttribute('data-tone')]).toEqual(['3,3% (4)', 'red']);
    const paused = applyLiveEvent(worse, event(campaign({}, 'paused')));
    rerender(<MonitorWall data={live(paused)} filters={{}} wallboard={false} />);
    expect(text(screen.getByTestId('campaign-tile'), 'campaign-paused')).toBe('Tạm dừng');
    const ended = applyLiveEvent(paused, event(null));
    rerender(<MonitorWall data={live(ended)} filters={{}} wallboard={false} />);
    expect(screen.queryByTestId('monitor-campaigns')).toBeNull();
  });
  it('an automated voice survey: its calls up and the contacts who answered, no agents nor abandoned rate', () => {
    show(monitorFixture({ campaigns: [{ ...campaign({ talking: 0, ready: 0, answered: 40, abandoned: 0, hotline_minute: null }), mode: 'voice' }] }));
    const tile = screen.getByTestId('campaign-tile');
    expect([text(tile, 'campaign-mode'), text(tile, 'campaign-calling'), text(tile, 'campaign-answered')]).toEqual(['Khảo sát tự động', '4', '40']);
    for (const id of ['campaign-talking', 'campaign-ready', 'campaign-abandoned']) expect(within(tile).queryByTestId(id)).toBeNull();
    expect(tile.getAttribute('data-tone')).toBe('green');
  });
});

describe('agents filter and sort', () => {
  const rows = agentRows(monitorFixture());
  it('filters by department and team', () => {
    expect(filterSortAgents(rows, { department_id: '1' }).map((r) => r.extension)).toEqual(['101', '102']);
    expect(filterSortAgents(rows, { team_id: '12' }).map((r) => r.extension)).toEqual(['102']);
  });
  it('sorts by state, handled calls, name (Vietnamese order, no name last)', () => {
    expect(filterSortAgents(rows, { sort: 'state' }).map((r) => r.state)).toEqual(['talking', 'free', 'offline']);
    expect(filterSortAgents(rows, { sort: 'handled' }).map((r) => r.extension)).toEqual(['101', '102', '103']);
    expect(filterSortAgents(rows, { sort: 'name' }).map((r) => r.extension)).toEqual(['101', '102', '103']);
  });
});
