import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { CampaignContact, CampaignResults } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import '../i18n';
import { ResultsButton } from './ResultsDialog';

const mockGet = jest.fn();
let allowed: string[] = [];
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get: mockGet }), notify: jest.fn() }));
jest.mock('@tongdai/platform/react', () => ({ useCan: () => ({ can: (p: string) => allowed.includes(p), featureEnabled: () => true }) }));
// The chart library draws with SVG measurements jsdom lacks: a stand-in shows what each chart is given.
jest.mock('@fluentui/react-charts', () => ({
  DataVizPalette: new Proxy({}, { get: (_, k) => String(k) }),
  getColorFromToken: (token: string, dark: boolean) => `${token}${dark ? '-dark' : ''}`,
  GroupedVerticalBarChart: ({ data, chartTitle }: { data: { name: string; series: { legend: string; data: number }[] }[]; chartTitle: string }) => (
    <div data-testid="chart" aria-label={chartTitle}>
      {data.map((g) => `${g.name}: ${g.series.filter((x) => x.data).map((x) => `${x.legend} ${x.data}`).join(', ')}`).join(' | ')}
    </div>
  ),
}));

const RESULTS: CampaignResults = {
  progress: { total: 4, done: 3, pending: 1, by_result: { agreed: 1, declined: 1, busy: 1 }, refused: { tenant_dnc: 1 } },
  attempts: { total: 4, refused: 1, refusals: { tenant_dnc: 1 } },
  questions: [
    { question_id: 1, text: 'Gói cước?', kind: 'single', answered: 3, average: null, options: [{ label: 'Cơ bản', count: 2 }, { label: 'Nâng cao', count: 1 }] },
    { question_id: 2, text: 'Chấm điểm', kind: 'rating', answered: 2, average: 3, options: ['0', '1', '0', '1', '0'].map((n, i) => ({ label: String(i + 1), count: Number(n) })) },
    { question_id: 3, text: 'Góp ý', kind: 'text', answered: 1, average: null, options: [] },
  ],
  agents: [
    { user_id: 1, name: 'Quản trị', attempts: 2, refused: 0, by_result: { agreed: 1, busy: 1 } },
    { user_id: 2, name: 'Nhân viên', attempts: 2, refused: 1, by_result: { declined: 1 } },
  ],
  days: [{ day: '2026-11-28', attempts: 2, refused: 0, by_result: { agreed: 1, declined: 1 } }, { day: '2026-11-29', attempts: 2, refused: 1, by_result: { busy: 1 } }],
};

const contact = (id: number, name: string, extra: Partial<CampaignContact>): CampaignContact => ({
  id, name, number: '84912000111', fields: {}, customer_id: null, state: 'done', attempts: 1, result: 'agreed', created_at: '2026-11-28T01:00:00.000Z', call: null, ...extra,
});
const CONTACTS = {
  data: [
    contact(1, 'Chị Lan', {
      call: {
        attempt_id: 5, call_id: 'c-5', attempt_at: '2026-11-28T02:00:00.000Z', started_at: '2026-11-28T02:00:02.000Z', answered_at: '2026-11-28T02:00:07.000Z',
        talk_seconds: 95, result: 'answered', recording: { id: 77, duration_seconds: 95, downloadable: false },
      },
    }),
    contact(2, 'Anh Nam', { number: '0912***112', result: 'busy', call: { attempt_id: 6, call_id: 'c-6', attempt_at: '2026-11-28T03:00:00.000Z', started_at: null, answered_at: null, talk_seconds: null, result: null, recording: null } }),
    contact(3, 'Cô Hoa', { state: 'pending', attempts: 0, result: null }),
  ],
  meta: { page: 1, per_page: 10, total: 3 },
};
/** The API as the dialog asks it: the results, a page of contacts, a recording's bytes. */
const api = (extra: (url: string) => unknown = () => undefined) => (url: string) =>
  extra(url) ?? (url.endsWith('/contacts') ? { json: () => Promise.resolve(CONTACTS) } : { json: () => Promise.resolve({ data: RESULTS }) });

const open = () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}><ResultsButton family="survey" campaign={{ id: 9, name: 'Khảo sát tháng 11' }} /></I18nextProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByTestId('campaign-results'));
};

beforeEach(() => {
  allowed = ['campaign.view'];
  mockGet.mockReset().mockImplementation(api());
});

describe('the results of a campaign', () => {
  it('"Kết quả" opens the figures, the refusals per Decree 91 reason and the charts (loaded lazily) in Vietnamese', async () => {
    open();
    const dialog = await screen.findByTestId('results-dialog');
    expect(mockGet).toHaveBeenCalledWith('survey-campaigns/9/results');
    expect(within(dialog).getByText('Kết quả: Khảo sát tháng 11')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('figure-done').textContent).toBe('3Liên hệ đã xong / 4'));
    expect(screen.getByTestId('figure-attempts').textContent).toBe('4Lượt gọi');
    expect(screen.getByTestId('figure-agreed').textContent).toBe('1Đồng ý');
    expect(screen.getByTestId('figure-refused').textContent).toBe('1Bị chặn (Nghị định 91)');
    expect(screen.getByTestId('refusals').textContent).toBe('Số nằm trong danh sách không gọi của doanh nghiệp: 1');
    const charts = await screen.findAllByTestId('chart');
    expect(charts.map((c) => [c.getAttribute('aria-label'), c.textContent])).toEqual([
      ['Gói cước?', 'Cơ bản: Số câu trả lời 2 | Nâng cao: Số câu trả lời 1'],
      ['Chấm điểm', '1:  | 2: Số câu trả lời 1 | 3:  | 4: Số câu trả lời 1 | 5: '],
      ['Kết quả theo nhân viên', 'Quản trị: Đồng ý 1, Máy bận 1 | Nhân viên: Từ chối 1, Bị chặn (Nghị định 91) 1'],
      ['Kết quả theo ngày', '28/11/2026: Đồng ý 1, Từ chối 1 | 29/11/2026: Máy bận 1, Bị chặn (Nghị định 91) 1'],
    ]);
    const texts = screen.getAllByTestId('question-result').map((q) => q.textContent);
    expect(texts[1]).toContain('2 câu trả lời · trung bình 3');
    expect(texts[2]).toContain('1 câu trả lời');
    // No campaign.export: no export buttons.
    expect(screen.queryByTestId('results-export-xlsx')).toBeNull();
  });

  it('campaign.export downloads the XLSX through the results export', async () => {
    allowed = ['campaign.view', 'campaign.export'];
    const blob = jest.fn(() => Promise.resolve(new Blob(['x'])));
    mockGet.mockImplementation(api((url) => (url.includes('/export.') ? { blob } : undefined)));
    URL.createObjectURL = jest.fn(() => 'blob:x');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    open();
    fireEvent.click(await screen.findByTestId('results-export-xlsx'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(mockGet).toHaveBeenCalledWith('survey-campaigns/9/results/export.xlsx', { timeout: false });
  });

  it("shows each contact's call (time, result, talk time) and plays its recording from the contact's row", async () => {
    const blob = jest.fn(() => Promise.resolve(new Blob(['mp3'], { type: 'audio/mpeg' })));
    mockGet.mockImplementation(api((url) => (url === 'recordings/77/audio' ? { blob } : undefined)));
    URL.createObjectURL = jest.fn(() => 'blob:rec');
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    open();
    const rows = await screen.findAllByTestId('contact-row');
    expect(mockGet).toHaveBeenCalledWith('survey-campaigns/9/contacts', { searchParams: { page: 1, per_page: 10 } });
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      ['Chị Lan', '0912000111', 'Đã xong', 'Đồng ý', '28/11/2026 09:00 · Trả lời', '01:35', '01:35'],
      ['Anh Nam', '0912***112', 'Đã xong', 'Máy bận', '28/11/2026 10:00 · Đang gọi', '—', '—'],
      ['Cô Hoa', '0912000111', 'Chờ gọi', '—', '—', '—', '—'],
    ]);
    fireEvent.click(within(rows[0]).getByTestId('contact-recording'));
    await waitFor(() => expect(play).toHaveBeenCalled());
    expect(mockGet).toHaveBeenCalledWith('recordings/77/audio', { timeout: 120_000 });
    expect(blob).toHaveBeenCalledTimes(1);
  });
});
