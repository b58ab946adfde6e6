import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { PERM, RECORDING_MSG } from '@tongdai/contracts';
import { i18n, notices$, session, type Notice } from '@tongdai/platform';
import { RecordingSettingsSection } from './RecordingSettingsSection';
import { SystemSettingsScreen } from './SystemSettingsScreen';

type Call = { method: string; url: string; json?: unknown };
const calls: Call[] = [];
let answers: Record<string, (c: Call) => unknown>;
jest.mock('@tongdai/platform', () => {
  const send = (method: string) => (url: string, o: { json?: unknown } = {}) => {
    const call = { method, url, json: o.json };
    calls.push(call);
    const body = Promise.resolve().then(() => {
      const answer = answers[`${method} ${url}`];
      if (!answer) throw new Error(`unexpected ${method} ${url}`);
      return answer(call);
    });
    return Object.assign(body, { json: () => body });
  };
  return { ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get: send('get'), put: send('put') }) };
});

/** What ky throws on a non-2xx answer, as far as toApiError reads it. */
const refusal = (status: number, body: unknown) => {
  throw Object.assign(new Error('HTTPError'), { name: 'HTTPError', response: { status, clone: () => ({ json: () => Promise.resolve(body) }) } });
};

function signIn(permissions: string[]) {
  session.start({ token: 't', maDn: 'dn1', profile: null, payment: null, user: { name: 'quan-ly', permissions: permissions.map((name) => ({ name })) } as never });
}
function show(el = <RecordingSettingsSection />) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<I18nextProvider i18n={i18n}><QueryClientProvider client={qc}><MemoryRouter>{el}</MemoryRouter></QueryClientProvider></I18nextProvider>);
}
const radio = (mode: string) => screen.getByTestId(`recording-mode-${mode}`) as HTMLInputElement;
const days = () => screen.getByTestId('field-retention_days') as HTMLInputElement;
const puts = () => calls.filter((c) => c.method === 'put');

// Fluent's MessageBar watches its width; jsdom has no ResizeObserver.
beforeAll(() => {
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  calls.length = 0;
  answers = {
    'get recording-settings': () => ({ data: { recording_mode: 'inbound', retention_days: 90, monitor_calls: false } }),
    'put recording-settings': (c) => ({ data: c.json }),
  };
});

describe('Ghi âm cuộc gọi (/setting/system)', () => {
  it("shows the tenant's mode among the four and the days kept", async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    show();
    await waitFor(() => expect(radio('inbound').checked).toBe(true));
    expect(screen.getByRole('heading', { name: 'Ghi âm cuộc gọi' })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      'Ghi âm mọi cuộc gọi', 'Chỉ ghi âm cuộc gọi vào', 'Chỉ ghi âm cuộc gọi ra', 'Không ghi âm',
    ]);
    expect(days().value).toBe('90');
    expect(screen.getByText('Số ngày lưu ghi âm')).toBeTruthy();
  });

  it('saves by its own PUT: the mode chosen, empty days as null (kept for ever)', async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    const heard: Notice[] = [];
    const sub = notices$.subscribe((n) => heard.push(n));
    show();
    await waitFor(() => expect(radio('inbound').checked).toBe(true));
    fireEvent.click(radio('all'));
    fireEvent.change(days(), { target: { value: '' } });
    await act(async () => { fireEvent.click(screen.getByTestId('recording-save')); });
    await waitFor(() => expect(puts()).toEqual([{ method: 'put', url: 'recording-settings', json: { recording_mode: 'all', retention_days: null, monitor_calls: false } }]));
    await waitFor(() => expect(heard).toContainEqual({ intent: 'success', message: 'Đã lưu cài đặt ghi âm' }));
    sub.unsubscribe();
    // No other setting goes with it.
    expect(calls.map((c) => c.url)).toEqual(['recording-settings', 'recording-settings']);
  });

  it('"Cho phép giám sát mọi cuộc gọi": off as loaded, switched on and saved with the rest', async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    show();
    await waitFor(() => expect(days().value).toBe('90'));
    const monitor = screen.getByRole('switch', { name: /Tắt/ }) as HTMLInputElement;
    expect(screen.getByText('Cho phép giám sát mọi cuộc gọi')).toBeTruthy();
    expect(screen.getByText(/nghe được cả cuộc gọi trực tiếp không ghi âm/)).toBeTruthy();
    expect(monitor.checked).toBe(false);
    fireEvent.click(monitor);
    expect((screen.getByTestId('field-monitor_calls') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Bật')).toBeTruthy();
    await act(async () => { fireEvent.click(screen.getByTestId('recording-save')); });
    await waitFor(() => expect(puts()).toEqual([{ method: 'put', url: 'recording-settings', json: { recording_mode: 'inbound', retention_days: 90, monitor_calls: true } }]));
  });

  it('refuses days out of range under the field, with the contract message, and sends nothing', async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    show();
    await waitFor(() => expect(days().value).toBe('90'));
    fireEvent.change(days(), { target: { value: '0' } });
    await act(async () => { fireEvent.click(screen.getByTestId('recording-save')); });
    expect(await screen.findByText(RECORDING_MSG.retention)).toBeTruthy();
    expect(puts()).toEqual([]);
    // Typing again clears it.
    fireEvent.change(days(), { target: { value: '30' } });
    expect(screen.queryByText(RECORDING_MSG.retention)).toBeNull();
  });

  it("shows a 400's field message under its field and its message above the form", async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    answers['put recording-settings'] = () => refusal(400, {
      status: 400, code: 'VALIDATION_FAILED', message: 'Dữ liệu không hợp lệ', details: [{ field: 'retention_days', message: 'Số ngày lưu vượt quá giới hạn của gói dịch vụ' }],
    });
    show();
    await waitFor(() => expect(days().value).toBe('90'));
    fireEvent.change(days(), { target: { value: '3650' } });
    await act(async () => { fireEvent.click(screen.getByTestId('recording-save')); });
    const field = days().closest('.fui-Field') as HTMLElement;
    await waitFor(() => expect(within(field).getByText('Số ngày lưu vượt quá giới hạn của gói dịch vụ')).toBeTruthy());
    expect(screen.getByTestId('recording-form-error').textContent).toBe('Dữ liệu không hợp lệ');
    expect(puts()).toHaveLength(1);
  });

  it('with setting.view only: shown, not changeable, no save', async () => {
    signIn([PERM.setting.view]);
    show();
    await waitFor(() => expect(radio('inbound').checked).toBe(true));
    expect(days().disabled).toBe(true);
    for (const r of screen.getAllByRole('radio')) expect((r as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('field-monitor_calls') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('recording-save')).toBeNull();
    expect(screen.getByTestId('recording-read-only').textContent).toBe('Bạn chỉ có quyền xem cài đặt ghi âm.');
  });

  it('a settings load that fails says so in the section, with a retry', async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    answers['get recording-settings'] = () => refusal(500, { status: 500, code: 'INTERNAL', message: 'Có lỗi xảy ra , vui lòng thử lại' });
    show();
    expect(await screen.findByText('Có lỗi xảy ra , vui lòng thử lại')).toBeTruthy();
    answers['get recording-settings'] = () => ({ recording_mode: 'none', retention_days: null });
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Thử lại' })); });
    // A bare answer (no `data`) reads the same.
    await waitFor(() => expect(radio('none').checked).toBe(true));
    expect(days().value).toBe('');
  });

  it('sits under the system settings form, which keeps its one "save"', async () => {
    signIn([PERM.setting.view, PERM.setting.edit]);
    answers['get get-system-setting'] = () => ({ data: { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 } });
    show(<SystemSettingsScreen />);
    await waitFor(() => expect(radio('inbound').checked).toBe(true));
    expect(screen.getByTestId('system-settings-form')).toBeTruthy();
    expect(screen.getAllByTestId('save')).toHaveLength(1);
    expect(screen.getByTestId('system-settings-form').contains(screen.getByTestId('recording-settings'))).toBe(false);
  });
});
