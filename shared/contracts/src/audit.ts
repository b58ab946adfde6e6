import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { reportParams, reportQuery } from './reports';
import { PROVIDER_LABELS } from './settings';

/**
 * The audit log of administrative changes (issue 42, ADR 0057): who changed which configuration
 * object, when, from where, and what it was before and after. The database writes the lines
 * (migrations 0065 and 0066's audit_kinds list the same kinds as AUDIT_KINDS); the API lists and exports
 * them, /setting/audit-log shows them.
 */

/** The kinds of object the log follows, with their Vietnamese names (migration 0065's audit_kinds). */
export const AUDIT_KINDS = {
  role: 'Vai trò',
  account: 'Tài khoản',
  department: 'Phòng ban',
  team: 'Nhóm trong phòng ban',
  branch: 'Chi nhánh',
  project: 'Dự án',
  data_source: 'Nguồn dữ liệu',
  profile_status: 'Trạng thái hồ sơ',
  user_group: 'Nhóm người dùng',
  extension: 'Máy nhánh',
  number: 'Số điện thoại / hotline',
  audio: 'Lời chào / nhạc chờ',
  time_group: 'Nhóm thời gian',
  holiday_override: 'Điều chỉnh ngày lễ',
  ring_group: 'Nhóm đổ chuông',
  queue: 'Hàng đợi',
  ivr: 'IVR',
  notification: 'Thông báo',
  time_condition: 'Điều kiện thời gian',
  last_call: 'Gọi lại người nghe gần nhất',
  inbound: 'Tuyến gọi vào',
  outbound_rule: 'Tuyến gọi ra',
  blocked_number: 'Số bị chặn',
  switchboard: 'Tổng đài nhà mạng',
  setting: 'Cài đặt hệ thống',
  site: 'Thông tin trang',
  google_account: 'Tài khoản Google',
  otp_key: 'Khoá API voice-OTP',
  survey_category: 'Danh mục khảo sát',
  survey_question: 'Câu hỏi khảo sát',
  campaign: 'Chiến dịch',
  kpi: 'KPI',
} as const;
export type AuditKind = keyof typeof AUDIT_KINDS;

export const AUDIT_ACTIONS = { create: 'Thêm', update: 'Sửa', delete: 'Xoá' } as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The tenant API's paths (under /t/:ma_dn). */
export const AUDIT_API = { list: 'audit-log', options: 'audit-log/options', export: (format: 'csv' | 'xlsx') => `audit-log/export.${format}` } as const;
/** The settings slug of the screen: /setting/audit-log. */
export const AUDIT_SETTING = 'audit-log';

export const AUDIT_MSG = {
  badKind: 'Loại đối tượng không hợp lệ',
  badAction: 'Hành động không hợp lệ',
  badEntity: 'Mã đối tượng không hợp lệ',
} as const;

const choice = <const K extends string>(keys: readonly [K, ...K[]], message: string) =>
  v.optional(v.union([v.literal(''), v.picklist(keys)], message), '');

/**
 * GET /t/:ma_dn/audit-log: Vietnam days `from`/`to` (both included; none: all), the user who acted,
 * the kind of object (and one object by its key), the action, a free search (object, user, IP, the
 * values before and after), newest first, 10 a page.
 */
export const AuditQuerySchema = reportQuery({
  from: reportParams.day,
  to: reportParams.day,
  user_id: reportParams.id,
  kind: choice(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]], AUDIT_MSG.badKind),
  action: choice(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]], AUDIT_MSG.badAction),
  entity_id: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{0,19}$/, AUDIT_MSG.badEntity)), ''),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  page: reportParams.count(100_000, 1),
  per_page: reportParams.count(100, PAGE_SIZE),
});
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;

/** One line of the log. Secrets read "***"; `changed` names the fields that differ (all that are set, for a create or delete). */
export interface AuditEntry {
  id: number;
  /** ISO instant. */
  at: string;
  /** The account as it was when it acted (null: an account no longer known). */
  actor_id: number | null;
  actor_username: string;
  actor_name: string;
  ip: string;
  user_agent: string;
  kind: AuditKind;
  entity_id: string;
  entity_name: string;
  action: AuditAction;
  changed: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** GET /t/:ma_dn/audit-log/options: the accounts that appear in the log, by the name they had last. */
export interface AuditOptions {
  users: { id: number; name: string }[];
}

/** Field names as the screens call them; a field not listed shows its own name. */
export const AUDIT_FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Tên',
  display_name: 'Tên hiển thị',
  username: 'Tên đăng nhập',
  full_name: 'Họ và tên',
  description: 'Mô tả',
  permissions: 'Quyền',
  roles: 'Vai trò',
  members: 'Thành viên',
  status: 'Trạng thái',
  active: 'Hoạt động',
  enabled: 'Kích hoạt',
  email: 'Email',
  phone: 'Số điện thoại',
  address: 'Địa chỉ',
  code: 'Mã',
  color: 'Màu',
  password_hash: 'Mật khẩu',
  sip_password: 'Mật khẩu SIP',
  auth_password_sealed: 'Mật khẩu xác thực',
  key_sealed: 'Khoá dịch vụ',
  secret_hash: 'Khoá bí mật',
  webhook_secret_sealed: 'Khoá ký webhook',
  voicemail_pin: 'Mã PIN hộp thư thoại',
  department_id: 'Phòng ban',
  team_id: 'Nhóm',
  branch_id: 'Chi nhánh',
  manager_id: 'Trưởng phòng',
  leader_id: 'Trưởng nhóm',
  user_id: 'Tài khoản',
  extension: 'Máy nhánh',
  extensions: 'Máy nhánh',
  agents: 'Nhân viên',
  number: 'Số',
  did: 'Số gọi vào (DID)',
  caller_pattern: 'Số gọi đến',
  destination_type: 'Loại điểm đến',
  destination_target: 'Điểm đến',
  strategy: 'Chiến lược đổ chuông',
  ring_time: 'Thời gian đổ chuông (giây)',
  agent_timeout: 'Thời gian đổ chuông mỗi nhân viên (giây)',
  max_wait: 'Thời gian chờ tối đa (giây)',
  timeout: 'Thời gian chờ (giây)',
  timeout_type: 'Loại điểm đến khi hết giờ',
  timeout_target: 'Điểm đến khi hết giờ',
  greeting_id: 'Lời chào',
  join_greeting_id: 'Lời chào khi vào hàng đợi',
  moh_class: 'Nhạc chờ',
  entries: 'Phím bấm',
  digit: 'Phím',
  ranges: 'Khoảng thời gian',
  time_start: 'Giờ bắt đầu',
  time_end: 'Giờ kết thúc',
  dow_start: 'Từ thứ',
  dow_end: 'Đến thứ',
  dom_start: 'Từ ngày',
  dom_end: 'Đến ngày',
  month_start: 'Từ tháng',
  month_end: 'Đến tháng',
  time_group_id: 'Nhóm thời gian',
  override: 'Ghi đè',
  pattern: 'Mẫu số',
  prepend: 'Thêm tiền tố',
  strip: 'Bỏ số đầu',
  priority: 'Ưu tiên',
  caller_id: 'Số hiển thị',
  switchboard_id: 'Tổng đài nhà mạng',
  switchboard_ids: 'Tổng đài nhà mạng',
  carrier: 'Nhà mạng',
  host: 'Địa chỉ máy chủ',
  port: 'Cổng',
  transport: 'Giao thức',
  auth_user: 'Tài khoản xác thực',
  register: 'Đăng ký tới nhà mạng',
  register_interval: 'Chu kỳ đăng ký lại (giây)',
  max_channels: 'Số kênh tối đa',
  codecs: 'Codec',
  caller_id_format: 'Định dạng số hiển thị',
  recording_mode: 'Chế độ ghi âm',
  recording_retention_days: 'Số ngày lưu ghi âm',
  monitor_calls: 'Cho phép giám sát mọi cuộc gọi',
  voicemail_enabled: 'Hộp thư thoại',
  hidden_phone_customer: 'Ẩn số điện thoại khách hàng',
  position_hidden_phone_customer: 'Vị trí bắt đầu ẩn',
  show_popup_customer: 'Popup thông tin khách hàng',
  voice_over_internet_protocol: 'Nhà cung cấp tổng đài',
  logo: 'Logo',
  bytes: 'Tệp âm thanh',
  file_name: 'Tên tệp',
  client_email: 'Email tài khoản dịch vụ',
  scopes: 'Phạm vi',
  daily_limit: 'Giới hạn mỗi ngày',
  webhook_url: 'Địa chỉ webhook',
  revoked_at: 'Thu hồi lúc',
  otp_enabled: 'Gọi OTP',
  advertising_identity: 'Tên định danh quảng cáo',
  max_calls_per_minute: 'Cuộc gọi tự động tối đa mỗi phút',
  text: 'Nội dung',
  kind: 'Loại',
  options: 'Lựa chọn',
  required: 'Bắt buộc',
  position: 'Thứ tự',
  category_id: 'Danh mục',
  questions: 'Câu hỏi',
  purpose: 'Mục đích',
  mode: 'Chế độ gọi',
  state: 'Trạng thái chiến dịch',
  script: 'Kịch bản',
  hotline_id: 'Hotline',
  max_attempts: 'Số lần gọi tối đa',
  measure: 'Chỉ số',
  target: 'Mục tiêu',
  period: 'Chu kỳ',
  created_at: 'Tạo lúc',
  updated_at: 'Cập nhật lúc',
  id: 'Mã',
};

export const auditFieldLabel = (field: string): string => AUDIT_FIELD_LABELS[field] ?? field;

const VN_OFFSET_MS = 7 * 3_600_000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** dd/MM/yyyy HH:mm:ss, Vietnam time, of an ISO instant ('' for none). */
export function vnDateTime(iso: string | null | undefined): string {
  const ms = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return '';
  const s = new Date(ms + VN_OFFSET_MS).toISOString();
  return `${s.slice(8, 10)}/${s.slice(5, 7)}/${s.slice(0, 4)} ${s.slice(11, 19)}`;
}

/** A value of a snapshot as a person reads it: yes/no, lists joined, instants in Vietnam time, '' for none. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Có' : 'Không';
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? vnDateTime(value) || value : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((x) => (x !== null && typeof x === 'object' ? auditObject(x as Record<string, unknown>) : auditValue(x))).join(', ');
  return auditObject(value as Record<string, unknown>);
}
const auditObject = (o: Record<string, unknown>): string =>
  Object.entries(o).filter(([, x]) => x !== null && x !== '').map(([k, x]) => `${auditFieldLabel(k)}: ${auditFieldValue(k, x)}`).join(' · ');

/** 0/1 (or '0'/'1') as the switch it is on its screen: Có / Không. */
const onOff = (value: unknown): string | undefined => (value === 1 || value === '1' ? 'Có' : value === 0 || value === '0' ? 'Không' : undefined);

/**
 * Fields whose stored value is a code, read as their screen shows it: the system settings' on/off
 * switches are numbers (SPEC: "all numeric"), the softphone provider is 1, 2 or 3. Others by auditValue.
 */
const FIELD_READERS: Record<string, (value: unknown) => string | undefined> = {
  hidden_phone_customer: onOff,
  show_popup_customer: onOff,
  voice_over_internet_protocol: (value) => PROVIDER_LABELS[Number(value) as keyof typeof PROVIDER_LABELS],
};

/** A field's value as the log shows it: by its field's reader where it has one, else by auditValue. */
export function auditFieldValue(field: string, value: unknown): string {
  return (value === null || value === undefined ? undefined : FIELD_READERS[field]?.(value)) ?? auditValue(value);
}

/** One field of a line: its label, and what it was and became (as read by auditFieldValue). */
export interface AuditChange {
  field: string;
  label: string;
  before: string;
  after: string;
  /** A secret: only that it changed is known. */
  secret: boolean;
}

const FIELD_ORDER = Object.keys(AUDIT_FIELD_LABELS);
const rank = (f: string) => (FIELD_ORDER.includes(f) ? FIELD_ORDER.indexOf(f) : FIELD_ORDER.length);

/** The fields a line is about, in a reading order (names first, timestamps and keys last). */
export function auditChanges(e: Pick<AuditEntry, 'changed' | 'before' | 'after'>): AuditChange[] {
  return [...e.changed]
    .filter((f) => f !== 'id' && f !== 'created_at' && f !== 'updated_at')
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((field) => ({
      field,
      label: auditFieldLabel(field),
      before: auditFieldValue(field, e.before?.[field]),
      after: auditFieldValue(field, e.after?.[field]),
      secret: e.before?.[field] === '***' || e.after?.[field] === '***',
    }));
}

/** The words of the screen and the export. */
export const AUDIT_LABELS = {
  title: 'Nhật ký thay đổi',
  at: 'Thời gian',
  actor: 'Người thực hiện',
  username: 'Tên đăng nhập',
  ip: 'Địa chỉ IP',
  userAgent: 'Trình duyệt',
  kind: 'Loại đối tượng',
  entityId: 'Mã đối tượng',
  entity: 'Đối tượng',
  action: 'Hành động',
  changes: 'Nội dung thay đổi',
  before: 'Trước (JSON)',
  after: 'Sau (JSON)',
  secretChanged: 'Đã đổi (giá trị được ẩn)',
  unknownActor: 'Tài khoản đã xoá',
} as const;

export const AUDIT_EXPORT_HEADERS = [
  AUDIT_LABELS.at, AUDIT_LABELS.actor, AUDIT_LABELS.username, AUDIT_LABELS.ip, AUDIT_LABELS.userAgent, AUDIT_LABELS.kind,
  AUDIT_LABELS.entityId, AUDIT_LABELS.entity, AUDIT_LABELS.action, AUDIT_LABELS.changes, AUDIT_LABELS.before, AUDIT_LABELS.after,
] as const;

/** "Tên: A → B; Quyền: x → x, y" (a create lists what was set, a delete what there was). */
export function auditSummary(e: AuditEntry): string {
  return auditChanges(e)
    .map((c) => {
      if (c.secret) return `${c.label}: ${AUDIT_LABELS.secretChanged}`;
      if (e.action === 'create') return `${c.label}: ${c.after}`;
      if (e.action === 'delete') return `${c.label}: ${c.before}`;
      return `${c.label}: ${c.before || '∅'} → ${c.after || '∅'}`;
    })
    .join('; ');
}

/** One export line, in AUDIT_EXPORT_HEADERS order. */
export function auditCells(e: AuditEntry): string[] {
  return [
    vnDateTime(e.at), e.actor_name || e.actor_username, e.actor_username, e.ip, e.user_agent, AUDIT_KINDS[e.kind] ?? e.kind, e.entity_id,
    e.entity_name, AUDIT_ACTIONS[e.action], auditSummary(e), e.before ? JSON.stringify(e.before) : '', e.after ? JSON.stringify(e.after) : '',
  ];
}
