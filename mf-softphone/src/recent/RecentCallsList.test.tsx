import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import type { RecentCall, RecentCallsPage } from '@tongdai/contracts';
import '../i18n';
import RecentCallsList from './RecentCallsList';

const asked: string[] = [];
let pages: RecentCallsPage[] = [];
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  tenantApi: () => ({
    get: (path: string, o: { searchParams: Record<string, string> }) => {
      asked.push(`${path}?${new URLSearchParams(o.searchParams)}`);
      return { json: async () => pages.shift() };
    },
  }),
}));

const call = (o: Partial<RecentCall>): RecentCall => ({
  id: 1, started_at: '2026-11-23T03:00:00.000Z', direction: 'outgoing', number: '102', dial: '102', name: 'Nhân viên tổng đài', result: 'answered', missed: false, billsec: 75, ...o,
});

function renderList(canCall = true, onCall = jest.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <RecentCallsList canCall={canCall} onCall={onCall} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return onCall;
}

beforeEach(() => { asked.length = 0; });

describe('RecentCallsList (the softphone\'s "Gần đây")', () => {
  it('says in Vietnamese that there is no recent call', async () => {
    pages = [{ data: [], next: null, missed: 0 }];
    renderList();
    expect((await screen.findByTestId('softphone-recent-empty')).textContent).toBe('Chưa có cuộc gọi nào gần đây');
  });

  it('shows each call from the agent\'s side with its talk time in mm:ss, pages on with "Xem thêm", and a click redials', async () => {
    pages = [
      { data: [call({}), call({ id: 2, direction: 'incoming', number: '098***4321', dial: '0987654321', name: null, result: 'no_answer', missed: true, billsec: 0 })], next: 'c2', missed: 0 },
      { data: [call({ id: 3, number: '0912345678', dial: '0912345678', name: 'Nguyễn Thị Hoa', billsec: 3600 })], next: null, missed: 0 },
    ];
    const onCall = renderList();
    const rows = await screen.findAllByTestId('softphone-recent-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      // Dates as every screen writes them (23/11/2026, not vi-VN's own "23-11"), Vietnam time.
      'Nhân viên tổng đài · 102Gọi đi · 23/11/2026 10:00 · Trả lời01:15',
      expect.stringMatching(/^098\*\*\*4321Cuộc gọi nhỡ · .* · Không trả lời00:00$/),
    ]);
    fireEvent.click(screen.getByTestId('softphone-recent-more'));
    await screen.findByText(/Nguyễn Thị Hoa/);
    expect(screen.getAllByTestId('softphone-recent-row')).toHaveLength(3);
    expect(screen.getAllByTestId('softphone-recent-talk')[2].textContent).toBe('60:00');
    expect(asked).toEqual(['histories-call?', 'histories-call?cursor=c2']);
    fireEvent.click(rows[1]);
    expect(onCall).toHaveBeenCalledWith('0987654321');
  });

  it('does not redial while the phone cannot call', async () => {
    pages = [{ data: [call({})], next: null, missed: 0 }];
    const onCall = renderList(false);
    fireEvent.click(await screen.findByTestId('softphone-recent-row'));
    expect(onCall).not.toHaveBeenCalled();
  });
});
