import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReportFreshness } from '@tongdai/contracts';
import { reportScreen } from './report-screen';

/** The reports' lag warning over every report screen (issue 42), over a fake freshness endpoint. */
const gets: string[] = [];
let answer: ReportFreshness | Error;
jest.mock('@tongdai/platform', () => {
  const get = (url: string) => {
    gets.push(url);
    const body = Promise.resolve().then(() => {
      if (answer instanceof Error) throw answer;
      return { data: answer };
    });
    return Object.assign(body, { json: () => body });
  };
  return { ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get }) };
});

// Fluent's MessageBar watches its width; jsdom has no ResizeObserver.
beforeAll(() => {
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  gets.length = 0;
});

const Report = () => <p data-testid="the-report">Lịch sử cuộc gọi</p>;
async function show() {
  const { default: Screen } = await reportScreen(async () => Report)();
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Screen /></QueryClientProvider>);
  await waitFor(() => expect(gets).toEqual(['reports/freshness']));
  expect(screen.getByTestId('the-report')).toBeTruthy();
}
const notice = () => screen.queryByTestId('report-lag');

describe('the reports lag warning', () => {
  it('says in Vietnamese how far the figures trail, over the report, past 5 seconds', async () => {
    answer = { source: 'replica', lag_seconds: 12 };
    await show();
    await waitFor(() => expect(notice()).not.toBeNull());
    expect(notice()!.textContent).toBe('Số liệu báo cáo đang chậm khoảng 12 giây so với hệ thống.');
  });

  it('in minutes when it is minutes', async () => {
    answer = { source: 'replica', lag_seconds: 600 };
    await show();
    await waitFor(() => expect(notice()?.textContent).toBe('Số liệu báo cáo đang chậm khoảng 10 phút so với hệ thống.'));
  });

  it.each<[string, ReportFreshness | Error]>([
    ['without a replica', { source: 'primary', lag_seconds: 0 }],
    ['with a replica within 5 s', { source: 'replica', lag_seconds: 5 }],
    ['while the primary stands in for a replica that is down', { source: 'fallback', lag_seconds: 0 }],
    ['when the API does not answer it (an older API)', new Error('404')],
  ])('shows nothing %s', async (_, a) => {
    answer = a;
    await show();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(notice()).toBeNull();
  });
});
