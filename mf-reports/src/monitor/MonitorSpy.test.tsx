import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { PERM, type LiveCall, type MonitorSnapshot } from '@tongdai/contracts';
import { dialBus, i18n, publishPhoneReady, session, type DialRequest } from '@tongdai/platform';
import type { LiveMonitor } from '@tongdai/platform/react';
import { monitorFixture } from '@tongdai/testkit/monitor-fixture';
import { MonitorWall } from './MonitorScreen';

/**
 * Issue 16 on the wall: Nghe / Nhắc / Tham gia on each answered call and each agent talking, for a
 * viewer holding monitor.spy only; a click asks the softphone (the real dial bus) for the code.
 */
const live = (s: MonitorSnapshot): LiveMonitor => ({ ...s, offset: 10_000 - Date.now() });
const show = (s: MonitorSnapshot = monitorFixture(), wallboard = false) =>
  render(<I18nextProvider i18n={i18n}><MonitorWall data={live(s)} filters={{}} wallboard={wallboard} /></I18nextProvider>);
const login = (...permissions: string[]) =>
  session.start({ token: 'tok', maDn: 'demo', profile: null, payment: null, user: { name: 'giam-sat', permissions: permissions.map((name) => ({ name })) } });
const agent = (ext: string) => screen.getAllByTestId('agent-row').find((r) => r.getAttribute('data-extension') === ext)!;
const call = (id: string) => screen.getAllByTestId('call-row').find((r) => r.getAttribute('data-call-id') === id)!;
const headers = (table: string) => within(screen.getByTestId(table)).getAllByRole('columnheader').map((h) => h.textContent);
const buttons = (el: HTMLElement) => within(el).queryAllByRole('button').map((b) => b.textContent);
const text = (el: HTMLElement, id: string) => within(el).getByTestId(id).textContent;

/** Hovers a button and returns the tooltip that opens (Fluent shows it after a delay). */
function tooltipOf(button: HTMLElement): string | null {
  fireEvent.pointerEnter(button);
  act(() => jest.advanceTimersByTime(1000));
  const text = screen.queryByRole('tooltip')?.textContent ?? null;
  fireEvent.pointerLeave(button);
  act(() => jest.advanceTimersByTime(1000));
  return text;
}

let dialled: DialRequest[];
let sub: { unsubscribe(): void };
beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
  publishPhoneReady(false);
  dialled = [];
  sub = dialBus.requests$.subscribe((r) => dialled.push(r));
});
afterEach(() => {
  sub.unsubscribe();
  jest.useRealTimers();
  session.clear();
});

describe('listen / whisper / barge on the wall', () => {
  it('without monitor.spy: no buttons, no column, no codes', () => {
    login(PERM.monitor.view);
    show();
    expect(screen.queryAllByTestId('spy-buttons')).toEqual([]);
    expect(screen.queryByText('Nghe')).toBeNull();
    expect(headers('agents-table')).not.toContain('Giám sát');
    expect(headers('calls-table')).not.toContain('Giám sát');
    expect(screen.queryByTestId('spy-help')).toBeNull();
  });

  it('with monitor.spy: the three buttons on the agent talking and on the answered call only, and the codes explained', () => {
    login(PERM.monitor.spy);
    show();
    expect(headers('agents-table').at(-1)).toBe('Giám sát');
    expect(headers('calls-table').at(-1)).toBe('Giám sát');
    expect(buttons(agent('101'))).toEqual(['Nghe', 'Nhắc', 'Tham gia']);
    expect(buttons(agent('102'))).toEqual([]); // free
    expect(buttons(agent('103'))).toEqual([]); // offline
    expect(buttons(call('c2'))).toEqual(['Nghe', 'Nhắc', 'Tham gia']); // 101 talking
    expect(buttons(call('c1'))).toEqual([]); // still waiting in the queue
    expect(within(agent('101')).getByRole('group').getAttribute('aria-label')).toBe('Giám sát cuộc gọi của máy nhánh 101');
    expect(screen.getByTestId('spy-help').textContent).toBe(
      'Từ điện thoại bất kỳ, gọi *222 + máy nhánh để nghe, *223 + máy nhánh để nhắc, *224 + máy nhánh để tham gia. '
        + 'Trong cuộc gọi, bấm 4 để nghe, 5 để nhắc, 6 để tham gia. Chỉ giám sát được cuộc gọi qua hàng đợi, IVR hoặc cuộc gọi được ghi âm.',
    );
  });

  it('a click dials the code and the agent\'s extension on the softphone, each mode its own code', () => {
    login(PERM.monitor.spy);
    act(() => publishPhoneReady(true));
    show();
    fireEvent.click(within(call('c2')).getByRole('button', { name: 'Nghe' }));
    fireEvent.click(within(agent('101')).getByRole('button', { name: 'Nhắc' }));
    fireEvent.click(within(agent('101')).getByRole('button', { name: 'Tham gia' }));
    expect(dialled).toEqual([
      { kind: 'number', number: '*222101' },
      { kind: 'number', number: '*223101' },
      { kind: 'number', number: '*224101' },
    ]);
    expect(tooltipOf(within(call('c2')).getByRole('button', { name: 'Nhắc' }))).toBe('Nói với nhân viên, khách hàng không nghe thấy bạn');
    // The hint is also the button's description for assistive technology, hovered or not.
    const whisper = within(agent('101')).getByRole('button', { name: 'Nhắc' });
    expect(document.getElementById(whisper.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Nói với nhân viên, khách hàng không nghe thấy bạn');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('an outbound call an agent placed: the buttons target the agent who called', () => {
    login(PERM.monitor.spy);
    act(() => publishPhoneReady(true));
    const out: LiveCall = {
      call_id: 'c3', direction: 'outbound', caller: '102', callee: '0912000111', did: null, route: [], state: 'talking',
      queue_id: null, ringing: [], extension: null, caller_extension: '102', started_at: 6_000, queued_at: null, answered_at: 7_000,
    };
    const base = monitorFixture();
    show({ ...base, calls: [...base.calls, out], agents: base.agents.map((a) => (a.extension === '102' ? { ...a, call_id: 'c3' } : a)) });
    fireEvent.click(within(call('c3')).getByRole('button', { name: 'Tham gia' }));
    fireEvent.click(within(agent('102')).getByRole('button', { name: 'Nghe' }));
    expect(dialled.map((r) => r.kind === 'number' && r.number)).toEqual(['*224102', '*222102']);
  });

  it("a supervisor's own spy call is on the wall without buttons: it is not a call to join", () => {
    login(PERM.monitor.spy);
    act(() => publishPhoneReady(true));
    const spying: LiveCall = {
      call_id: 'c4', direction: 'outbound', caller: '102', callee: '*222101', did: null, route: [], state: 'talking',
      queue_id: null, ringing: [], extension: null, caller_extension: '102', started_at: 6_000, queued_at: null, answered_at: 7_000,
    };
    const base = monitorFixture();
    show({ ...base, calls: [...base.calls, spying], agents: base.agents.map((a) => (a.extension === '102' ? { ...a, call_id: 'c4' } : a)) });
    expect(text(call('c4'), 'call-state')).toBe('Đang đàm thoại');
    expect(buttons(call('c4'))).toEqual([]);
    expect(text(agent('102'), 'agent-state')).toBe('Đang đàm thoại');
    expect(buttons(agent('102'))).toEqual([]);
    expect(buttons(agent('101'))).toEqual(['Nghe', 'Nhắc', 'Tham gia']); // the agent listened to keeps theirs
  });

  it('softphone not ready (not registered, or in a call): disabled with the reason, enabled once it is', () => {
    login(PERM.monitor.spy);
    show();
    const listen = within(call('c2')).getByRole('button', { name: 'Nghe' });
    expect(listen.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(listen);
    expect(dialled).toEqual([]);
    expect(tooltipOf(listen)).toBe('Điện thoại chưa sẵn sàng: máy nhánh chưa đăng ký hoặc đang có cuộc gọi');
    act(() => publishPhoneReady(true));
    expect(listen.getAttribute('aria-disabled')).toBeNull();
    expect(tooltipOf(listen)).toBe('Nghe cuộc gọi, hai bên không nghe thấy bạn');
    fireEvent.click(listen);
    expect(dialled).toEqual([{ kind: 'number', number: '*222101' }]);
  });

  it('wallboard: the agent\'s tile carries the buttons; the help line stays off the big screen', () => {
    login(PERM.monitor.spy);
    act(() => publishPhoneReady(true));
    show(monitorFixture(), true);
    expect(buttons(agent('101'))).toEqual(['Nghe', 'Nhắc', 'Tham gia']);
    expect(buttons(agent('102'))).toEqual([]);
    expect(screen.queryByTestId('spy-help')).toBeNull();
    fireEvent.click(within(agent('101')).getByRole('button', { name: 'Tham gia' }));
    expect(dialled).toEqual([{ kind: 'number', number: '*224101' }]);
  });
});
