import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AGENT_RESULTS, DECREE91_MESSAGES, DIALER_CALL_STATE_LABELS, DIALER_POLL_SEC, WORK_MSG, type DialerCallState, type NoContactReason, type WorkNext } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import '../i18n';
import WorkScreen from './WorkScreen';

const mockPost = jest.fn();
const mockPut = jest.fn();
const mockGet = jest.fn();
const mockDial = jest.fn();
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  tenantApi: () => ({ post: mockPost, put: mockPut, get: mockGet }),
  notify: jest.fn(),
  requestDial: (r: unknown) => mockDial(r),
}));

const WORK: WorkNext = {
  campaign: {
    id: 9, family: 'survey', name: 'Khảo sát Q4', purpose: 'advertising', hotline_number: '02873002222', script: 'Chào {{name}}, gói {{Gói}} của anh/chị ({{phone}})',
    questions: [{ id: 7, version: 1, kind: 'text', text: 'Góp ý', options: [], required: false }], mode: 'preview',
  },
  contact: {
    id: 31, campaign_id: 9, name: 'Nguyễn An', phone: '091***5678', fields: { 'Gói': 'Vàng' }, attempts: 1, callback: false, held_until: '2026-12-01T03:02:00Z',
    customer: { id: 4, name: 'Nguyễn An', code: 'KH-4' },
    history: [{ id: 1, started_at: '2026-11-30T03:00:00Z', agent_name: 'Quản trị', result: 'busy', refusal: null }],
    answers: { 7: { value: 'Đã lưu trước', question: { question_id: 7, version: 1, kind: 'text', text: 'Góp ý', options: [] } } },
  },
  reason: null, message: null,
};
// Fluent's message bar measures itself; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
const reply = (data: unknown) => ({ json: () => Promise.resolve({ data }) });

function open() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/survey/campaign/start/9']}>
          <Routes><Route path="/survey/campaign/start/:id" element={<WorkScreen />} /></Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  mockPost.mockReset();
  mockPut.mockReset().mockResolvedValue({});
  mockGet.mockReset();
  mockDial.mockReset();
});

describe('the working screen', () => {
  it('shows the contact masked, its CRM card and attempts, the script filled in and the saved answers; typing is saved after a pause', async () => {
    mockPost.mockReturnValue(reply(WORK));
    open();
    expect((await screen.findByTestId('work-phone')).textContent).toBe('091***5678');
    expect(screen.getByText('Thẻ khách hàng KH-4')).toBeTruthy();
    expect(screen.getByText(/Quản trị · Máy bận/)).toBeTruthy();
    expect(screen.getByTestId('work-script').textContent).toBe('Chào Nguyễn An, gói Vàng của anh/chị (091***5678)');
    const box = screen.getByDisplayValue('Đã lưu trước');
    jest.useFakeTimers();
    try {
      fireEvent.change(box, { target: { value: 'Muốn gói rẻ hơn' } });
      expect(mockPut).not.toHaveBeenCalled();
      act(() => jest.advanceTimersByTime(700));
    } finally {
      jest.useRealTimers();
    }
    expect(mockPut).toHaveBeenCalledWith('survey-campaigns/9/contacts/31/answers', { json: { question_id: 7, value: 'Muốn gói rẻ hơn' } });
  });

  it('a page going away (pagehide: a reload, a closed tab) sends the answer still waiting with keepalive, so it outlives the page', async () => {
    mockPost.mockReturnValue(reply(WORK));
    open();
    const box = await screen.findByDisplayValue('Đã lưu trước');
    jest.useFakeTimers();
    try {
      fireEvent.change(box, { target: { value: 'Gõ rồi đóng tab' } });
      act(() => void window.dispatchEvent(new Event('pagehide')));
      expect(mockPut).toHaveBeenCalledTimes(1);
      expect(mockPut).toHaveBeenCalledWith('survey-campaigns/9/contacts/31/answers', { json: { question_id: 7, value: 'Gõ rồi đóng tab' }, keepalive: true, retry: 0 });
      // Sent once: the debounce that was waiting sends nothing more.
      act(() => jest.advanceTimersByTime(700));
      expect(mockPut).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('"Gọi" dials through the softphone when the server allows it, and says why in Vietnamese when Decree 91 refuses', async () => {
    mockPost.mockImplementation((path: string) => (path.endsWith('/call') ? reply({ allowed: true, attempt_id: 5 }) : reply(WORK)));
    const { unmount } = open();
    fireEvent.click(await screen.findByTestId('work-call'));
    await waitFor(() => expect(mockDial).toHaveBeenCalledWith({ kind: 'campaign', dialPath: 'survey-campaigns/9/contacts/31/dial', display: '091***5678' }));
    unmount();
    mockPost.mockImplementation((path: string) =>
      path.endsWith('/call') ? reply({ allowed: false, reason: 'outside_window', message: DECREE91_MESSAGES.outside_window }) : reply(WORK));
    mockDial.mockReset();
    open();
    fireEvent.click(await screen.findByTestId('work-call'));
    expect((await screen.findByTestId('work-refusal')).textContent).toBe(DECREE91_MESSAGES.outside_window);
    expect(mockDial).not.toHaveBeenCalled();
  });

  it('"Hẹn gọi lại" asks for its date (dd/MM/yyyy) and 24-hour time, then ends the contact and the next one comes', async () => {
    const next: WorkNext = { ...WORK, contact: { ...WORK.contact!, id: 32, name: 'Lê Bình', answers: {}, history: [] } };
    let calls = 0;
    mockPost.mockImplementation((path: string) => (path.endsWith('/result') ? Promise.resolve({}) : reply(calls++ === 0 ? WORK : next)));
    open();
    fireEvent.click(await screen.findByTestId('work-result-callback'));
    expect(await screen.findByText('Chọn ngày giờ gọi lại')).toBeTruthy();
    fireEvent.change(screen.getByTestId('work-callback-at'), { target: { value: '02/12/2026' } });
    fireEvent.change(screen.getByTestId('work-callback-time'), { target: { value: '9:30' } });
    fireEvent.click(screen.getByTestId('work-result-callback'));
    expect(await screen.findByText('Lê Bình')).toBeTruthy();
    expect(mockPost).toHaveBeenCalledWith('survey-campaigns/9/contacts/31/result', { json: { result: 'callback', callback_at: new Date('2026-12-02T09:30').toISOString() } });
  });

  it('says why there is no contact', async () => {
    mockPost.mockReturnValue(reply({ ...WORK, contact: null, reason: 'outside_window', message: 'Ngoài khung giờ gọi của chiến dịch' }));
    open();
    expect((await screen.findByTestId('work-empty')).textContent).toBe('Ngoài khung giờ gọi của chiến dịch');
  });
});

/** How many times the screen asked for its next contact. */
const asks = () => mockPost.mock.calls.filter(([path]) => String(path).endsWith('/next-contact')).length;
const poll = () => act(() => void jest.advanceTimersByTime(DIALER_POLL_SEC * 1000));

describe('a preview campaign stays as built', () => {
  it('"Gọi" and the six results an agent sets; no ready switch, no readiness asked, no asking again by itself', async () => {
    jest.useFakeTimers();
    try {
      mockPost.mockReturnValue(reply(WORK));
      open();
      expect(await screen.findByTestId('work-call')).toBeTruthy();
      expect(screen.queryByTestId('work-ready')).toBeNull();
      expect(screen.queryByTestId('work-dialer-state')).toBeNull();
      expect(screen.getAllByTestId(/^work-result-/).map((b) => b.getAttribute('data-testid'))).toEqual(AGENT_RESULTS.map((r) => `work-result-${r}`));
      poll();
      poll();
      expect(asks()).toBe(1);
      expect(mockGet).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('a progressive campaign (issue 34)', () => {
  const campaign = { ...WORK.campaign, mode: 'progressive' as const };
  const held = (state: DialerCallState): WorkNext => ({ campaign, contact: { ...WORK.contact!, dialer: { state } }, reason: null, message: null });
  const none = (reason: NoContactReason, message: string | null): WorkNext => ({ campaign, contact: null, reason, message });
  const readyReply = (ready: boolean) => reply({ ready, ready_until: ready ? '2026-12-01T03:00:45Z' : null });

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('waits with a spinner, follows the call the dialer placed, takes the result once it ended, then waits again', async () => {
    let now = none('waiting', WORK_MSG.waiting);
    mockGet.mockReturnValue(readyReply(true));
    mockPost.mockImplementation((path: string) => (path.endsWith('/result') ? Promise.resolve({}) : reply(now)));
    open();
    expect((await screen.findByTestId('work-waiting')).textContent).toBe(WORK_MSG.waiting);
    expect(screen.queryByTestId('work-call')).toBeNull();
    expect(screen.queryByText('Lấy liên hệ tiếp theo')).toBeNull();
    // Still waiting: it asks again every DIALER_POLL_SEC (each ask keeps the agent ready).
    poll();
    await waitFor(() => expect(asks()).toBe(2));

    now = held('calling');
    poll();
    expect((await screen.findByTestId('work-dialer-state')).textContent).toBe('Đang gọi khách hàng…');
    // Ringing: a spinner beside the state; talking (below): none.
    expect(within(screen.getByTestId('work-dialer-state')).queryByRole('progressbar')).not.toBeNull();
    expect(screen.getByTestId('work-script').textContent).toBe('Chào Nguyễn An, gói Vàng của anh/chị (091***5678)');
    expect(screen.getByText('Thẻ khách hàng KH-4')).toBeTruthy();
    expect(screen.queryByTestId('work-call')).toBeNull();
    expect((screen.getByTestId('work-result-agreed') as HTMLButtonElement).disabled).toBe(true);

    now = held('bridged');
    poll();
    expect(await screen.findByText(DIALER_CALL_STATE_LABELS.bridged)).toBeTruthy();
    expect(within(screen.getByTestId('work-dialer-state')).queryByRole('progressbar')).toBeNull();

    now = held('ended');
    poll();
    expect(await screen.findByText(DIALER_CALL_STATE_LABELS.ended)).toBeTruthy();
    // The call ended: nothing more to follow until the agent sets the result.
    const settled = asks();
    poll();
    poll();
    expect(asks()).toBe(settled);
    expect(screen.getAllByTestId(/^work-result-/).map((b) => b.getAttribute('data-testid'))).toEqual(AGENT_RESULTS.map((r) => `work-result-${r}`));

    now = none('waiting', WORK_MSG.waiting);
    fireEvent.click(screen.getByTestId('work-result-agreed'));
    expect(await screen.findByTestId('work-waiting')).toBeTruthy();
    expect(mockPost).toHaveBeenCalledWith('survey-campaigns/9/contacts/31/result', { json: { result: 'agreed', callback_at: null } });
    poll();
    await waitFor(() => expect(asks()).toBe(settled + 2));
  });

  it('a new agent starts paused and asks nothing; the switch says ready (PUT) and the waiting begins; paused again, the asking stops', async () => {
    let ready = false;
    mockGet.mockImplementation(() => readyReply(ready));
    mockPut.mockImplementation((_path: string, o: { json: { ready: boolean } }) => {
      ready = o.json.ready;
      return readyReply(ready);
    });
    mockPost.mockImplementation(() => reply(ready ? none('waiting', WORK_MSG.waiting) : none('not_ready', WORK_MSG.notReady)));
    open();
    expect((await screen.findByTestId('work-empty')).textContent).toBe(WORK_MSG.notReady);
    const toggle = await screen.findByTestId('work-ready');
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    expect(screen.getByText('Tạm dừng nhận cuộc gọi')).toBeTruthy();
    expect(screen.queryByTestId('work-check')).toBeNull();
    poll();
    expect(asks()).toBe(1);

    fireEvent.click(toggle);
    await waitFor(() => expect(mockPut).toHaveBeenCalledWith('survey-campaigns/9/ready', { json: { ready: true } }));
    expect(await screen.findByTestId('work-waiting')).toBeTruthy();
    expect(screen.getByText('Sẵn sàng nhận cuộc gọi')).toBeTruthy();
    poll();
    await waitFor(() => expect(asks()).toBe(3));

    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() => expect(mockPut).toHaveBeenLastCalledWith('survey-campaigns/9/ready', { json: { ready: false } }));
    expect((await screen.findByTestId('work-empty')).textContent).toBe(WORK_MSG.notReady);
    const paused = asks();
    poll();
    poll();
    expect(asks()).toBe(paused);
  });

  it.each<[NoContactReason, string]>([
    ['no_extension', WORK_MSG.noExtension],
    ['outside_window', WORK_MSG.outsideWindow],
    ['empty', WORK_MSG.empty],
  ])('%s: says why, asks nothing by itself, and the agent may look again', async (reason, message) => {
    mockGet.mockReturnValue(readyReply(true));
    mockPost.mockReturnValue(reply(none(reason, message)));
    open();
    expect((await screen.findByTestId('work-empty')).textContent).toBe(message);
    poll();
    expect(asks()).toBe(1);
    fireEvent.click(screen.getByTestId('work-check'));
    await waitFor(() => expect(asks()).toBe(2));
  });

  it('the server sending no sentence still shows the contracts\' one', async () => {
    mockGet.mockReturnValue(readyReply(false));
    mockPost.mockReturnValue(reply(none('not_ready', null)));
    open();
    expect((await screen.findByTestId('work-empty')).textContent).toBe(WORK_MSG.notReady);
  });
});
