import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { reportParams, reportQuery, vnDayStart, REPORT_MSG } from './reports';
import { ACTIVITY_STATUSES, type ActivityStatus } from './settings';

/**
 * User activity (issue 14, /activity-user-tenant): logins, logouts, activity-status changes and SIP
 * registrations, recorded as events (append-only, per tenant), summed per user and Vietnam day.
 */

/** What a recorded event is. */
export type ActivityEventKind = 'login' | 'logout' | 'status' | 'registered' | 'unregistered';

/**
 * GET /t/:ma_dn/activity/users: `from`/`to` Vietnam days (both included, default today), the
 * usual department/team filters and one user; page size 10.
 */
export const ActivityQuerySchema = reportQuery({
  from: reportParams.day,
  to: reportParams.day,
  department_id: reportParams.id,
  team_id: reportParams.id,
  user_id: reportParams.id,
  /** Name, username or extension. */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  page: reportParams.count(100_000, 1),
  per_page: reportParams.count(100, PAGE_SIZE),
});
export type ActivityQuery = v.InferOutput<typeof ActivityQuerySchema>;

/** GET /t/:ma_dn/activity/timeline?user_id=&day= */
export const ActivityTimelineQuerySchema = v.object({
  user_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, REPORT_MSG.badId), v.transform(Number), v.minValue(1, REPORT_MSG.badId)),
  day: v.pipe(v.string(), v.check((s) => vnDayStart(s) !== null, REPORT_MSG.badDate)),
});
export type ActivityTimelineQuery = v.InferOutput<typeof ActivityTimelineQuerySchema>;

/** One user's Vietnam day. Seconds are clipped to the day (and to now for today). */
export interface ActivityDayRow {
  user_id: number;
  full_name: string;
  username: string;
  extension: string | null;
  department: string | null;
  team: string | null;
  /** YYYY-MM-DD (Vietnam). */
  day: string;
  /** ISO instants, null when none that day. */
  first_login: string | null;
  last_logout: string | null;
  registered_sec: number;
  /** Seconds spent in each status_activity while logged in, keyed by the status value. */
  status_sec: Record<ActivityStatus, number>;
  status_changes: number;
  /** Answered calls of the user's extension that day (reports read model). */
  calls_handled: number;
}

/** GET /t/:ma_dn/activity/options: the accounts the caller may pick (an agent: themselves). */
export interface ActivityOptions {
  users: { id: number; name: string }[];
}

/** A period of the timeline, ISO instants; `to` null = still going. */
export interface ActivityPeriod {
  from: string;
  to: string | null;
}
export interface ActivityTimeline {
  user_id: number;
  full_name: string;
  day: string;
  /** Logged in (any session open). */
  sessions: (ActivityPeriod & { end: 'logout' | 'expired' | null })[];
  statuses: (ActivityPeriod & { status: ActivityStatus })[];
  registered: (ActivityPeriod & { extension: string })[];
  /** The events themselves, in order. */
  events: { at: string; kind: ActivityEventKind; status: ActivityStatus | null; extension: string | null; reason: string }[];
}

/** Vietnamese words of the activity screen and its export. */
export const ACTIVITY_LABELS = {
  title: 'Hoạt động người dùng',
  person: 'Người dùng',
  extension: 'Máy nhánh',
  department: 'Phòng ban',
  team: 'Nhóm',
  day: 'Ngày',
  first_login: 'Đăng nhập đầu',
  last_logout: 'Đăng xuất cuối',
  registered: 'Thời gian đăng ký SIP',
  status_changes: 'Số lần đổi trạng thái',
  calls_handled: 'Cuộc gọi đã xử lý',
  timeline: 'Dòng thời gian',
  sessions: 'Đăng nhập',
  statuses: 'Trạng thái',
  registeredRow: 'Đăng ký SIP',
  empty: 'Không có hoạt động trong khoảng thời gian này',
  pickRow: 'Chọn một dòng để xem dòng thời gian trong ngày',
  login: 'Đăng nhập',
  logout: 'Đăng xuất',
  expired: 'Hết phiên',
  regOn: 'Đăng ký',
  regOff: 'Hủy đăng ký',
  status: 'Đổi trạng thái',
} as const;

/** The status columns, in order (label from ACTIVITY_STATUSES). */
export const ACTIVITY_STATUS_COLUMNS = ACTIVITY_STATUSES.map((s) => ({ value: s.value, label: s.label }));

/** h:mm:ss (a day's durations pass an hour; SPEC's mm:ss is for calls). */
export function formatHms(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The columns of the activity export, in order. */
export const ACTIVITY_EXPORT_HEADERS = [
  ACTIVITY_LABELS.day, ACTIVITY_LABELS.person, ACTIVITY_LABELS.extension, ACTIVITY_LABELS.department, ACTIVITY_LABELS.team,
  ACTIVITY_LABELS.first_login, ACTIVITY_LABELS.last_logout, ACTIVITY_LABELS.registered,
  ...ACTIVITY_STATUSES.map((s) => s.label), ACTIVITY_LABELS.status_changes, ACTIVITY_LABELS.calls_handled,
] as const;

const VN_OFFSET_MS = 7 * 3_600_000;
/** HH:mm:ss of an instant, Vietnam time. */
export const vnTime = (iso: string | null): string => (iso ? new Date(Date.parse(iso) + VN_OFFSET_MS).toISOString().slice(11, 19) : '');

/** One export line: times as HH:mm:ss Vietnam time, durations h:mm:ss. */
export function activityCells(r: ActivityDayRow): string[] {
  return [
    r.day, r.full_name, r.extension ?? '', r.department ?? '', r.team ?? '', vnTime(r.first_login), vnTime(r.last_logout), formatHms(r.registered_sec),
    ...ACTIVITY_STATUSES.map((s) => formatHms(r.status_sec[s.value])), String(r.status_changes), String(r.calls_handled),
  ];
}
