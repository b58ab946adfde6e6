import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DECREE91_MESSAGES, type WorkNext } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import '../i18n';
import WorkScreen from './WorkScreen';

const mockPost = jest.fn();
const mockPut = jest.fn();
const mockDial = jest.fn();
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  tenantApi: () => ({ post: mockPost, put: mockPut }),
  notify: jest.fn(),
  requestDial: (r: unknown) => mockDial(r),
}));

const WORK: WorkNext = {
  campaign: {
    id: 9, family: 'survey', name: 'Khảo sát Q4', purpose: 'advertising', hotline_number: '02873002222', script: 'Chào {{name}}, gói {{Gói}} của anh/chị ({{phone}})',
    questions: [{ id: 7, version: 1, kind: 'text', text: 'Góp ý', options: [], required: false }],
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

  it('"Hẹn gọi lại" asks for its date and time, then ends the contact and the next one comes', async () => {
    const next: WorkNext = { ...WORK, contact: { ...WORK.contact!, id: 32, name: 'Lê Bình', answers: {}, history: [] } };
    let calls = 0;
    mockPost.mockImplementation((path: string) => (path.endsWith('/result') ? Promise.resolve({}) : reply(calls++ === 0 ? WORK : next)));
    open();
    fireEvent.click(await screen.findByTestId('work-result-callback'));
    expect(await screen.findByText('Chọn ngày giờ gọi lại')).toBeTruthy();
    fireEvent.change(screen.getByTestId('work-callback-at'), { target: { value: '2026-12-02T09:30' } });
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
