import * as v from 'valibot';
import { AUDIT_EXPORT_HEADERS, AuditQuerySchema, auditCells, auditChanges, auditSummary, auditValue, vnDateTime, type AuditEntry } from './audit';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1, at: '2026-11-28T17:30:00.000Z', actor_id: 1, actor_username: 'admin', actor_name: 'Quản trị viên', ip: '203.0.113.7', user_agent: 'UA',
  kind: 'role', entity_id: '7', entity_name: 'Giám sát', action: 'update', changed: [], before: null, after: null, ...over,
});

describe('the audit log in Vietnamese', () => {
  it('writes instants as dd/MM/yyyy HH:mm:ss in Vietnam time, across midnight', () => {
    expect(vnDateTime('2026-11-28T17:30:00.000Z')).toBe('29/11/2026 00:30:00');
    expect(vnDateTime(null)).toBe('');
    expect(vnDateTime('not a date')).toBe('');
  });

  it('reads values as a person would: yes/no, lists, instants, objects of labelled fields', () => {
    expect([auditValue(true), auditValue(false), auditValue(null), auditValue(0)]).toEqual(['Có', 'Không', '', '0']);
    expect(auditValue(['customer.view', 'role.view'])).toBe('customer.view, role.view');
    expect(auditValue('2026-11-28T03:04:05+00:00')).toBe('28/11/2026 10:04:05');
    expect(auditValue([{ digit: '1', destination_type: 'direct', destination_target: '101' }])).toBe('Phím: 1 · Loại điểm đến: direct · Điểm đến: 101');
  });

  it('reads the system settings as their screen shows them: the switches stored as 0/1 as Có/Không, the provider by its name', () => {
    const e = entry({
      changed: ['hidden_phone_customer', 'show_popup_customer', 'position_hidden_phone_customer', 'voice_over_internet_protocol'],
      before: { hidden_phone_customer: 0, show_popup_customer: 1, position_hidden_phone_customer: 0, voice_over_internet_protocol: '1' },
      after: { hidden_phone_customer: 1, show_popup_customer: 0, position_hidden_phone_customer: 3, voice_over_internet_protocol: '2' },
    });
    expect(auditChanges(e).map((c) => [c.label, c.before, c.after])).toEqual([
      ['Ẩn số điện thoại khách hàng', 'Không', 'Có'],
      ['Vị trí bắt đầu ẩn', '0', '3'],
      ['Popup thông tin khách hàng', 'Có', 'Không'],
      ['Nhà cung cấp tổng đài', 'Tổng đài IP (WebRTC qua máy chủ SIP)', 'Tổng đài đối tác (SIP qua WebSocket)'],
    ]);
    // An object holding them (a create's whole row) reads them the same way.
    expect(auditValue({ show_popup_customer: 1, voice_over_internet_protocol: '3' })).toBe('Popup thông tin khách hàng: Có · Nhà cung cấp tổng đài: Tổng đài eTelecom (SDK bên thứ ba)');
  });

  it('lists the changed fields names first, timestamps and keys left out, secrets marked', () => {
    const e = entry({ changed: ['updated_at', 'permissions', 'password_hash', 'name', 'zzz'], before: { name: 'A', permissions: ['x'], password_hash: '***' }, after: { name: 'B', permissions: ['x', 'y'], password_hash: '***', zzz: 1 } });
    expect(auditChanges(e).map((c) => [c.label, c.before, c.after, c.secret])).toEqual([
      ['Tên', 'A', 'B', false], ['Quyền', 'x', 'x, y', false], ['Mật khẩu', '***', '***', true], ['zzz', '', '1', false],
    ]);
    expect(auditSummary(e)).toBe('Tên: A → B; Quyền: x → x, y; Mật khẩu: Đã đổi (giá trị được ẩn); zzz: ∅ → 1');
    expect(auditSummary(entry({ action: 'create', changed: ['name'], after: { name: 'B' } }))).toBe('Tên: B');
  });

  it('exports one line per entry in the headers’ order', () => {
    const cells = auditCells(entry({ changed: ['name'], before: { name: 'A' }, after: { name: 'B' } }));
    expect(cells).toHaveLength(AUDIT_EXPORT_HEADERS.length);
    expect(cells.slice(0, 10)).toEqual(['29/11/2026 00:30:00', 'Quản trị viên', 'admin', '203.0.113.7', 'UA', 'Vai trò', '7', 'Giám sát', 'Sửa', 'Tên: A → B']);
  });

  it('checks the filters with Vietnamese messages', () => {
    expect(v.parse(AuditQuerySchema, {})).toMatchObject({ kind: '', action: '', search: '', page: 1, per_page: 10 });
    expect(v.parse(AuditQuerySchema, { kind: 'switchboard', action: 'delete', user_id: '3', entity_id: '12' })).toMatchObject({ kind: 'switchboard', action: 'delete', user_id: 3, entity_id: '12' });
    const issues = (q: object) => v.safeParse(AuditQuerySchema, q).issues?.map((i) => i.message);
    expect(issues({ kind: 'x' })).toEqual(['Loại đối tượng không hợp lệ']);
    expect(issues({ action: 'sua' })).toEqual(['Hành động không hợp lệ']);
    expect(issues({ from: '2026-11-28', to: '2026-11-01' })).toEqual(['Ngày kết thúc phải sau hoặc bằng ngày bắt đầu']);
  });
});
