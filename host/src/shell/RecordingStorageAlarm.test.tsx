import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Subject } from 'rxjs';
import { PERM, type RecordingStorageEvent } from '@tongdai/contracts';
import { session } from '@tongdai/platform';
import { RecordingStorageAlarm } from './RecordingStorageAlarm';

const gets: string[] = [];
let fullSince: string | null;
const pushed = new Subject<RecordingStorageEvent>();
jest.mock('@tongdai/platform', () => {
  const get = (url: string) => {
    gets.push(url);
    const body = Promise.resolve({ data: { full_since: fullSince } });
    return Object.assign(body, { json: () => body });
  };
  return { ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get }), recordingStorageEvents$: { subscribe: (fn: (e: RecordingStorageEvent) => void) => pushed.subscribe(fn) } };
});

function signIn(permissions: string[]) {
  session.start({ token: 't', maDn: 'dn1', profile: null, payment: null, user: { name: 'u', permissions: permissions.map((name) => ({ name })) } as never });
}
const show = () => render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RecordingStorageAlarm /></QueryClientProvider>);
const alarm = () => screen.queryByTestId('recording-storage-alarm');

// Fluent's MessageBar watches its width; jsdom has no ResizeObserver.
beforeAll(() => {
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  gets.length = 0;
  fullSince = null;
});

describe('the recordings storage alarm bar (issue 41)', () => {
  it("shows an admin the storage full since when, in Vietnamese, and goes away when the API says there is space again", async () => {
    signIn([PERM.setting.view]);
    fullSince = '2026-11-25T16:05:00.000Z';
    show();
    await waitFor(() => expect(alarm()).not.toBeNull());
    expect(gets).toEqual(['recording-storage']);
    expect(alarm()!.getAttribute('role')).toBe('alert');
    expect(alarm()!.textContent).toBe(
      'Bộ nhớ ghi âm đã đầyTừ 25/11/2026 23:05, các cuộc gọi vẫn tiếp tục nhưng bản ghi âm đang chờ lưu. Hãy giải phóng hoặc mở rộng bộ nhớ ghi âm; cảnh báo sẽ tự tắt khi có chỗ trống trở lại.',
    );
    act(() => pushed.next({ kind: 'tongdai.recording-storage', version: 1, full_since: null }));
    await waitFor(() => expect(alarm()).toBeNull());
    // Full again later: the push alone shows it, with its new time.
    act(() => pushed.next({ kind: 'tongdai.recording-storage', version: 1, full_since: '2026-11-26T01:30:00.000Z' }));
    await waitFor(() => expect(alarm()?.textContent).toContain('Từ 26/11/2026 08:30,'));
    expect(gets).toHaveLength(1);
  });

  it('shows nothing while the storage has space', async () => {
    signIn([PERM.setting.view]);
    show();
    await waitFor(() => expect(gets).toEqual(['recording-storage']));
    expect(alarm()).toBeNull();
  });

  it('an agent (no setting.view) sees nothing and never asks', async () => {
    signIn([PERM.customer.view]);
    fullSince = '2026-11-25T16:05:00.000Z';
    show();
    act(() => pushed.next({ kind: 'tongdai.recording-storage', version: 1, full_since: fullSince }));
    expect(alarm()).toBeNull();
    expect(gets).toEqual([]);
  });
});
