import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PERM, type AuditEntry } from '@tongdai/contracts';
import { i18n, session } from '@tongdai/platform';
import SettingsArea from '../SettingsArea';
import { filtersOnScreen } from './audit.api';

type Call = { method: string; url: string; searchParams?: Record<string, unknown> };
const calls: Call[] = [];
let answers: Record<string, (c: Call) => unknown>;
/** The tenant API as ky answers (the API itself is the boundary of this screen). */
jest.mock('@tongdai/platform', () => {
  const send = (method: string) => (url: string, o: { searchParams?: Record<string, unknown> } = {}) => {
    const call = { method, url, searchParams: o.searchParams };
    calls.push(call);
    const body = Promise.resolve().then(() => {
      const answer = answers[`${method} ${url}`];
      if (!answer) throw new Error(`unexpected ${method} ${url}`);
      return answer(call);
    });
    return Object.assign(body, { json: () => body, blob: () => body.then(() => new Blob(['x'])) });
  };
  return { ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get: send('get') }) };
});

const line = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1, at: '2026-11-28T03:04:05.000Z', actor_id: 1, actor_username: 'admin', actor_name: 'Quản trị viên', ip: '203.0.113.7',
  user_agent: 'Chromium/131', kind: 'role', entity_id: '7', entity_name: 'Giám sát ca', action: 'update', changed: [], before: null, after: null, ...over,
});
const LINES: AuditEntry[] = [
  line({
    id: 3, changed: ['display_name', 'permissions'],
    before: { name: 'giam-sat', display_name: 'Giám sát ca', permissions: ['customer.view', 'role.view'] },
    after: { name: 'giam-sat', display_name: 'Giám sát ca tối', permissions: ['customer.edit', 'customer.view'] },
    entity_name: 'Giám sát ca tối',
  }),
  line({ id: 2, kind: 'account', entity_name: 'nhatky.tran', changed: ['password_hash'], before: { password_hash: '***' }, after: { password_hash: '***' } }),
  line({ id: 1, kind: 'switchboard', entity_name: 'Viettel', action: 'create', changed: ['host', 'name'], after: { name: 'Viettel', host: '203.113.131.90' } }),
];

function signIn(permissions: string[]) {
  session.start({ token: 't', maDn: 'demo', profile: null, payment: null, user: { name: 'quan-ly', permissions: permissions.map((name) => ({ name })) } as never });
}
function Where() {
  const l = useLocation();
  return <output data-testid="where">{`${l.pathname}${l.search}`}</output>;
}
function show(url = '/setting/audit-log') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={qc}>
        <MemoryRouter initialEntries={[url]}>
          <Routes><Route path="/setting/:slug" element={<SettingsArea />} /><Route path="/setting" element={<SettingsArea />} /></Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
const lists = () => calls.filter((c) => c.url === 'audit-log');
const rows = () => screen.getAllByTestId('list-row');

// Fluent renders slowly in jsdom on a loaded machine; the assertions, not the clock, are the test.
jest.setTimeout(30_000);
beforeAll(() => {
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  calls.length = 0;
  answers = {
    'get audit-log': () => ({ data: LINES, meta: { page: 1, per_page: 10, total: 3 } }),
    'get audit-log/options': () => ({ data: { users: [{ id: 1, name: 'Quản trị viên' }, { id: 5, name: 'Lê Văn Sửa' }] } }),
  };
});

describe('Nhật ký thay đổi (/setting/audit-log)', () => {
  it('lists who changed what: time in Vietnam, user, IP, the object in Vietnamese, the action and the fields', async () => {
    signIn([PERM.audit.view]);
    show();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('heading', { name: 'Nhật ký thay đổi' })).toBeTruthy();
    const first = within(rows()[0]);
    expect(first.getByTestId('audit-at').textContent).toBe('28/11/2026 10:04:05');
    expect([first.getByTestId('audit-actor').textContent, first.getByTestId('audit-username').textContent]).toEqual(['Quản trị viên', 'admin']);
    expect(first.getByTestId('audit-ip').textContent).toBe('203.0.113.7');
    expect(first.getByTestId('audit-kind').textContent).toBe('Vai trò');
    expect(first.getByTestId('audit-entity').textContent).toBe('Giám sát ca tối');
    expect(first.getByTestId('audit-action').textContent).toBe('Sửa');
    expect(first.getByTestId('audit-changes').textContent).toBe('Tên hiển thị, Quyền');
    expect(rows().map((r) => within(r).getByTestId('audit-kind').textContent)).toEqual(['Vai trò', 'Tài khoản', 'Tổng đài nhà mạng']);
    expect(within(rows()[2]).getByTestId('audit-action').textContent).toBe('Thêm');
    // A creation lists no changed fields under its object (its detail shows what was set).
    expect(within(rows()[2]).queryByTestId('audit-changes')).toBeNull();
    // The whole log, newest first: no day range unless one is chosen.
    expect(lists()[0].searchParams).toEqual({ page: 1 });
    // Read-only: no add, no edit, no delete; the export belongs to audit.export.
    expect(screen.queryByTestId('add')).toBeNull();
    expect(screen.queryByTestId('delete')).toBeNull();
    expect(screen.queryByTestId('export')).toBeNull();
  });

  it('opens a line to show each field before → after, a list with what it gained and lost, a secret only as changed', async () => {
    signIn([PERM.audit.view]);
    show();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(within(rows()[0]).getByTestId('audit-open'));
    const detail = await screen.findByTestId('audit-detail');
    expect(screen.getByTestId('where').textContent).toBe('/setting/audit-log?entry=3');
    const name = within(within(detail).getByTestId('audit-field-display_name'));
    expect([name.getByTestId('audit-before').textContent, name.getByTestId('audit-after').textContent]).toEqual(['Giám sát ca', 'Giám sát ca tối']);
    const perms = within(within(detail).getByTestId('audit-field-permissions'));
    expect(perms.getByTestId('audit-before').textContent).toBe('customer.view, role.view');
    expect(perms.getByTestId('audit-list-diff').textContent).toBe('Thêm: customer.edit · Bỏ: role.view');
    expect(within(detail).getByText(/Từ địa chỉ 203\.0\.113\.7 · Chromium\/131/)).toBeTruthy();
    // One line open at a time; the account's password: changed, never shown.
    fireEvent.click(within(rows()[1]).getByTestId('audit-open'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/setting/audit-log?entry=2'));
    const secret = within(screen.getByTestId('audit-field-password_hash'));
    expect(secret.getByTestId('audit-before').textContent).toBe('Đã đổi (giá trị được ẩn)');
    expect(screen.getAllByTestId('audit-detail')).toHaveLength(1);
    // A create shows what was set, in one column.
    fireEvent.click(within(rows()[2]).getByTestId('audit-open'));
    await waitFor(() => expect(screen.getByTestId('audit-field-host')).toBeTruthy());
    expect(within(screen.getByTestId('audit-field-host')).getByTestId('audit-value').textContent).toBe('203.113.131.90');
    fireEvent.click(within(rows()[2]).getByTestId('audit-open'));
    await waitFor(() => expect(screen.queryByTestId('audit-detail')).toBeNull());
  });

  it('filters by object kind, action, user and days; the export takes the same filters', async () => {
    signIn([PERM.audit.view, PERM.audit.export]);
    show();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.change(screen.getByTestId('audit-kind-filter'), { target: { value: 'account' } });
    await waitFor(() => expect(lists().at(-1)?.searchParams).toMatchObject({ kind: 'account' }));
    fireEvent.change(screen.getByTestId('audit-action-filter'), { target: { value: 'delete' } });
    await waitFor(() => expect(lists().at(-1)?.searchParams).toMatchObject({ kind: 'account', action: 'delete' }));
    const user = await screen.findByRole('option', { name: 'Lê Văn Sửa' });
    fireEvent.change(screen.getByTestId('audit-user-filter'), { target: { value: (user as HTMLOptionElement).value } });
    await waitFor(() => expect(lists().at(-1)?.searchParams).toMatchObject({ user_id: '5' }));
    fireEvent.change(screen.getByTestId('range-filter'), { target: { value: 'custom' } });
    fireEvent.change(await screen.findByTestId('range-from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByTestId('range-to'), { target: { value: '2026-11-28' } });
    await waitFor(() => expect(lists().at(-1)?.searchParams).toMatchObject({ from: '2026-11-01', to: '2026-11-28', kind: 'account', action: 'delete', user_id: '5' }));
    expect(screen.getByTestId('where').textContent).toBe('/setting/audit-log?kind=account&action=delete&user_id=5&range=2026-11-01%7E2026-11-28');
    // What the export sends for the URL on screen: the same filters, the range as days.
    expect(filtersOnScreen('?kind=account&action=delete&user_id=5&range=2026-11-01~2026-11-28&page=2&entry=3')).toEqual({
      kind: 'account', action: 'delete', user_id: '5', from: '2026-11-01', to: '2026-11-28',
    });
    expect(screen.getByTestId('export')).toBeTruthy();
    expect((screen.getByTestId('export-format') as HTMLSelectElement).value).toBe('csv');
  });

  it('says so when nothing was logged, and offers a retry when the log cannot be read', async () => {
    signIn([PERM.audit.view]);
    answers['get audit-log'] = () => ({ data: [], meta: { page: 1, per_page: 10, total: 0 } });
    const { unmount } = show();
    expect(await screen.findByText(/Chưa có thay đổi nào được ghi lại/)).toBeTruthy();
    unmount();
    answers['get audit-log'] = () => {
      throw Object.assign(new Error('HTTPError'), { name: 'HTTPError', response: { status: 500, clone: () => ({ json: () => Promise.resolve({ status: 500, code: 'INTERNAL_ERROR', message: 'Có lỗi xảy ra , vui lòng thử lại' }) }) } });
    };
    show();
    expect(await screen.findByText('Có lỗi xảy ra , vui lòng thử lại')).toBeTruthy();
    answers['get audit-log'] = () => ({ data: LINES, meta: { page: 1, per_page: 10, total: 3 } });
    fireEvent.click(screen.getByRole('button', { name: 'Thử lại' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('is for audit.view holders: a card on /setting, refused otherwise', async () => {
    signIn([PERM.setting.view]);
    const { unmount } = show();
    expect(await screen.findByTestId('forbidden')).toBeTruthy();
    expect(lists()).toHaveLength(0);
    unmount();
    show('/setting');
    expect(await screen.findByTestId('setting-card-system')).toBeTruthy();
    expect(screen.queryByTestId('setting-card-audit-log')).toBeNull();
  });

  it('shows its card to an audit.view holder', async () => {
    signIn([PERM.audit.view]);
    answers['get payment-check'] = () => ({ data: { feature_name_data: [], date_expired: null } });
    show('/setting');
    const card = await screen.findByTestId('setting-card-audit-log');
    expect(within(card).getByText('Nhật ký thay đổi')).toBeTruthy();
    expect(within(card).getByTestId('open-audit-log').getAttribute('href')).toBe('/setting/audit-log');
  });
});
