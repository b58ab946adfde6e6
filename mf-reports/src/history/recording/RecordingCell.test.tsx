import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { RECORDING_MSG, type CallReportRow } from '@tongdai/contracts';
import { i18n, notices$, session, type Notice } from '@tongdai/platform';
import { CallHistoryScreen, SuccessCallsScreen } from '../screens';

/**
 * The "Ghi âm" column of the call-history screens, on the real screens with the tenant API
 * answered from a table (recording.api.test.ts checks that those calls carry the bearer token).
 */
type Answer = { body?: unknown; blob?: Blob; headers?: Record<string, string>; status?: number };
const mockGet = jest.fn<Promise<unknown>, [string, object?]>();
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get: mockGet }) }));

/** What ky throws on a non-2xx answer, as far as toApiError reads it. */
const httpError = (status: number) =>
  Object.assign(new Error('HTTPError'), { name: 'HTTPError', response: { status, clone: () => ({ json: () => Promise.resolve({ status, code: 'NOT_FOUND', message: 'Không tìm thấy' }) }) } });

/** ky's answer: awaited as a response, or read at once with .json() / .blob(). */
function answer(a: Answer | Promise<Answer>) {
  const res = Promise.resolve(a).then((x) => {
    if (x.status && x.status >= 400) throw httpError(x.status);
    return { json: () => Promise.resolve(x.body), blob: () => Promise.resolve(x.blob ?? new Blob()), headers: new Headers(x.headers) };
  });
  return Object.assign(res, { json: () => res.then((r) => r.json()), blob: () => res.then((r) => r.blob()) });
}

const mp3 = (bytes = 16) => new Blob([new Uint8Array(bytes)], { type: 'audio/mpeg' });
const row = (id: number, caller: string, recording: CallReportRow['recording']): CallReportRow => ({
  id, started_at: '2026-03-02T02:15:00Z', direction: 'inbound', caller, callee: '101', did: '02873001234', path: [],
  answered_by: { extension: '101', name: 'Lan' }, wait: 4, billsec: 83, result: 'answered', reason: '', customer: null, recording,
});
const ROWS = [
  row(1, '0911000001', { id: 7, duration_seconds: 83, downloadable: true }),
  row(2, '0911000002', { id: 8, duration_seconds: 5, downloadable: false }),
  row(3, '0911000003', null),
];
const OPTIONS = { extensions: [], departments: [], teams: [], queues: [], hotlines: [] };

let routes: Record<string, () => Answer | Promise<Answer>>;
beforeEach(() => {
  routes = {
    'reports/call-history': () => ({ body: { data: ROWS, meta: { page: 1, per_page: 10, total: 3 } } }),
    'reports/success-calls': () => ({ body: { data: ROWS, meta: { page: 1, per_page: 10, total: 3 } } }),
    'reports/call-history/options': () => ({ body: { data: OPTIONS } }),
    'recordings/7/audio': () => ({ blob: mp3(16) }),
    'recordings/8/audio': () => ({ blob: mp3(8) }),
    'recordings/7/download': () => ({ blob: mp3(16), headers: { 'content-disposition': 'attachment; filename="ghi-am-0911000001-20260302.mp3"' } }),
  };
  mockGet.mockReset();
  mockGet.mockImplementation((url: string) => {
    const route = routes[url];
    if (!route) throw new Error(`unexpected GET ${url}`);
    return answer(route()) as never;
  });
});

// jsdom has neither media playback nor object URLs: doubles that behave like the browser's.
let urls = 0;
const created: string[] = [];
const revoked: string[] = [];
const saved: { name: string; href: string }[] = [];
beforeAll(() => {
  Object.assign(URL, {
    createObjectURL: () => { const u = `blob:test/${++urls}`; created.push(u); return u; },
    revokeObjectURL: (u: string) => { revoked.push(u); },
  });
  HTMLMediaElement.prototype.play = jest.fn(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { value: false, configurable: true });
    this.dispatchEvent(new Event('play'));
    this.dispatchEvent(new Event('playing'));
    return Promise.resolve();
  });
  HTMLMediaElement.prototype.pause = jest.fn(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { value: true, configurable: true });
    this.dispatchEvent(new Event('pause'));
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { saved.push({ name: this.download, href: this.href }); });
  session.start({ token: 'tok', maDn: 'dn1', profile: null, payment: null, user: { name: 'nhan-vien', permissions: [] } as never });
});
beforeEach(() => { created.length = 0; revoked.length = 0; saved.length = 0; });

function show(screenEl = <CallHistoryScreen />) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}><QueryClientProvider client={qc}><MemoryRouter initialEntries={['/call-history']}>{screenEl}</MemoryRouter></QueryClientProvider></I18nextProvider>,
  );
}
const rowOf = (caller: string) => screen.getAllByTestId('list-row').find((r) => within(r).queryByText(caller))!;
const audioCalls = () => mockGet.mock.calls.map(([url]) => url).filter((u) => u.startsWith('recordings/'));

jest.setTimeout(30_000);

describe('the call history "Ghi âm" column', () => {
  it('shows play to every row with a recording, download only where downloadable, a dash elsewhere', async () => {
    show();
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3));
    expect(screen.getByRole('columnheader', { name: 'Ghi âm' })).toBeTruthy();
    // The existing columns are still there.
    for (const name of ['Thời gian', 'Số gọi', 'Đàm thoại', 'Kết quả', 'Khách hàng']) expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    const first = within(rowOf('0911000001'));
    expect(first.getByRole('button', { name: 'Nghe ghi âm (01:23)' })).toBeTruthy();
    expect(first.getByRole('button', { name: 'Tải ghi âm' })).toBeTruthy();
    const second = within(rowOf('0911000002'));
    expect(second.getByRole('button', { name: 'Nghe ghi âm (00:05)' })).toBeTruthy();
    expect(second.queryByRole('button', { name: 'Tải ghi âm' })).toBeNull();
    const third = within(rowOf('0911000003'));
    expect(third.queryByTestId('recording-toggle')).toBeNull();
    expect(third.getByTestId('recording-none').textContent).toBe('—');
    // Nothing is fetched before a press.
    expect(audioCalls()).toEqual([]);
    expect(document.querySelectorAll('audio')).toHaveLength(0);
  });

  it('play fetches the bytes through the tenant API and opens a player under the row, playing; the focus stays on the button', async () => {
    show();
    const play = await within(await waitFor(() => rowOf('0911000001'))).findByRole('button', { name: 'Nghe ghi âm (01:23)' });
    play.focus();
    await act(async () => { fireEvent.click(play); });
    expect(audioCalls()).toEqual(['recordings/7/audio']);
    const detail = await screen.findByTestId('list-row-detail');
    expect(detail.previousElementSibling).toBe(rowOf('0911000001'));
    const audio = within(detail).getByTestId('recording-audio') as HTMLAudioElement;
    await waitFor(() => expect(audio.hidden).toBe(false));
    expect(audio.controls).toBe(true);
    expect(audio.src).toBe(created[0]);
    expect(audio.getAttribute('aria-label')).toBe('Ghi âm cuộc gọi 0911000001 → 101');
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
    // The same button, now closing the player.
    expect(document.activeElement).toBe(play);
    expect(play.getAttribute('aria-label')).toBe('Đóng trình phát ghi âm (01:23)');
    expect(play.getAttribute('aria-expanded')).toBe('true');
    expect(play.getAttribute('aria-controls')).toBe(within(detail).getByTestId('recording-player').id);

    await act(async () => { fireEvent.click(play); });
    expect(screen.queryByTestId('list-row-detail')).toBeNull();
    expect(revoked).toEqual(created);
    expect(play.getAttribute('aria-label')).toBe('Nghe ghi âm (01:23)');
  });

  it('one player at a time: opening another closes the first and lets its bytes go', async () => {
    show(<SuccessCallsScreen />);
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3));
    await act(async () => { fireEvent.click(within(rowOf('0911000001')).getByTestId('recording-toggle')); });
    await waitFor(() => expect(created).toHaveLength(1));
    await act(async () => { fireEvent.click(within(rowOf('0911000002')).getByTestId('recording-toggle')); });
    await waitFor(() => expect(created).toHaveLength(2));
    expect(screen.getAllByTestId('list-row-detail')).toHaveLength(1);
    expect(screen.getByTestId('list-row-detail').previousElementSibling).toBe(rowOf('0911000002'));
    expect(revoked).toEqual([created[0]]);
    expect(document.querySelectorAll('audio')).toHaveLength(1);
    expect(audioCalls()).toEqual(['recordings/7/audio', 'recordings/8/audio']);
  });

  it('says it is loading while the bytes come, and names a 404 as a recording deleted', async () => {
    let release: (a: Answer) => void = () => undefined;
    routes['recordings/7/audio'] = () => new Promise<Answer>((r) => { release = r; });
    show();
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3));
    await act(async () => { fireEvent.click(within(rowOf('0911000001')).getByTestId('recording-toggle')); });
    expect(screen.getByTestId('recording-loading').textContent).toBe('Đang tải ghi âm…');
    expect((screen.getByTestId('recording-audio') as HTMLAudioElement).hidden).toBe(true);
    await act(async () => { release({ status: 404 }); });
    expect((await screen.findByTestId('recording-error')).textContent).toBe(RECORDING_MSG.notFound);
    expect(screen.queryByTestId('recording-loading')).toBeNull();
    expect((screen.getByTestId('recording-audio') as HTMLAudioElement).hidden).toBe(true);
    expect(created).toEqual([]);
  });

  it('download saves the file under the name the API gives; busy, the button keeps the focus', async () => {
    let release: (a: Answer) => void = () => undefined;
    const file = routes['recordings/7/download'];
    routes['recordings/7/download'] = () => new Promise<Answer>((r) => { release = r; });
    show();
    const button = await within(await waitFor(() => rowOf('0911000001'))).findByRole('button', { name: 'Tải ghi âm' });
    button.focus();
    await act(async () => { fireEvent.click(button); });
    // disabledFocusable: announced as unavailable, still focused and not `disabled`.
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-label')).toBe('Đang tải xuống ghi âm…');
    expect(document.activeElement).toBe(button);
    await act(async () => { release(await file()); });
    await waitFor(() => expect(saved).toEqual([{ name: 'ghi-am-0911000001-20260302.mp3', href: created[0] }]));
    expect(audioCalls()).toEqual(['recordings/7/download']);
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });

  it('a download of a recording gone says so in a toast', async () => {
    routes['recordings/7/download'] = () => ({ status: 404 });
    const heard: Notice[] = [];
    const sub = notices$.subscribe((n) => heard.push(n));
    show();
    const button = await within(await waitFor(() => rowOf('0911000001'))).findByRole('button', { name: 'Tải ghi âm' });
    await act(async () => { fireEvent.click(button); });
    await waitFor(() => expect(heard).toEqual([{ intent: 'error', message: RECORDING_MSG.notFound }]));
    expect(saved).toEqual([]);
    sub.unsubscribe();
  });
});

describe('a call whose caller left a voicemail message (issue 16)', () => {
  it('its row plays the message from the web; its key is its own (a recording with the same id stays closed)', async () => {
    const withMessage = [{ ...ROWS[0] }, { ...row(3, '0911000003', null), voicemail: { id: 7, duration_seconds: 12 } }];
    routes['reports/call-history'] = () => ({ body: { data: withMessage, meta: { page: 1, per_page: 10, total: 2 } } });
    routes['reports/voicemail/7/audio'] = () => ({ blob: new Blob([new Uint8Array(44)], { type: 'audio/wav' }) });
    show();
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2));
    const third = rowOf('0911000003');
    expect(within(third).queryByTestId('recording-toggle')).toBeNull();
    const play = within(third).getByTestId('voicemail-toggle');
    expect(play.getAttribute('aria-label')).toBe('Nghe tin nhắn thoại người gọi để lại (00:12)');
    await act(async () => { fireEvent.click(play); });
    const detail = await screen.findByTestId('list-row-detail');
    expect(within(detail).getByTestId('voicemail-player')).toBeTruthy();
    expect(within(detail).getByTestId('recording-audio').getAttribute('aria-label')).toBe('Tin nhắn thoại của cuộc gọi 0911000003 → 101');
    expect(mockGet.mock.calls.map(([url]) => url)).toContain('reports/voicemail/7/audio');
    expect(audioCalls()).toEqual([]);
    // The recording 7 of the first row is another sound: still closed.
    expect(within(rowOf('0911000001')).getByTestId('recording-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(play.getAttribute('aria-label')).toBe('Đóng tin nhắn thoại (00:12)');
  });
});
