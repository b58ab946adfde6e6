import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { CALL_FAILURE_LABELS, callFailureOf } from './call-failures';
import type { SwitchboardCarrier } from './switchboard-carriers';
import type { RecordingRef } from './recording';
import type { VoicemailRef } from './voicemail';

/**
 * Call-history reports (issue 13): the filters of /call-history and /history-success-call, the
 * row they show, and the Vietnamese words for directions, results and date presets. Days are
 * Asia/Ho_Chi_Minh (UTC+7 all year, no daylight saving) whatever the server's or browser's zone.
 */

export const REPORT_DIRECTIONS = { inbound: 'Gọi vào', outbound: 'Gọi ra', internal: 'Nội bộ' } as const;
export type ReportDirection = keyof typeof REPORT_DIRECTIONS;

/**
 * Results as the screen names them; each is one CDR disposition (ADR 0045, decided once for every
 * screen): `answered` a person took the call (an extension, or someone outside through a carrier);
 * `voicemail` a mailbox took it; `auto` only the PBX's menus answered (an IVR the caller left, an
 * announcement, the mailbox menu); `no_answer` nobody answered (rang out, the caller gave up,
 * waiting in a queue too); then busy, failed, blocked.
 */
export const CALL_RESULTS = {
  answered: 'Trả lời', voicemail: 'Hộp thư thoại', auto: 'Tự động trả lời', no_answer: 'Không trả lời', busy: 'Máy bận', failed: 'Lỗi', blocked: 'Bị chặn',
} as const;
export type CallResult = keyof typeof CALL_RESULTS;
export const RESULT_DISPOSITION = {
  answered: 'ANSWERED', voicemail: 'VOICEMAIL', auto: 'AUTO', no_answer: 'NO ANSWER', busy: 'BUSY', failed: 'FAILED', blocked: 'BLOCKED',
} as const satisfies Record<CallResult, string>;
/** Dispositions of a call record (the cdrs column), one per result. */
export const DISPOSITIONS = Object.values(RESULT_DISPOSITION);
export type Disposition = (typeof RESULT_DISPOSITION)[CallResult];
const DISPOSITION_RESULT = Object.fromEntries(Object.entries(RESULT_DISPOSITION).map(([r, d]) => [d, r])) as Record<string, CallResult>;
export const resultOf = (disposition: string): CallResult => DISPOSITION_RESULT[disposition] ?? 'failed';

export const REPORT_MSG = {
  badDate: 'Ngày không hợp lệ (định dạng YYYY-MM-DD)',
  endBeforeStart: 'Ngày kết thúc phải sau hoặc bằng ngày bắt đầu',
  rangeTooLong: 'Khoảng thời gian tối đa là 366 ngày',
  badDirection: 'Hướng cuộc gọi không hợp lệ',
  badResult: 'Kết quả cuộc gọi không hợp lệ',
  unknownExtension: 'Máy nhánh không tồn tại',
  unknownDepartment: 'Phòng ban không tồn tại',
  unknownTeam: 'Nhóm không tồn tại',
  unknownQueue: 'Hàng đợi không tồn tại',
  extensionOutOfScope: 'Bạn không có quyền xem cuộc gọi của máy nhánh này',
  departmentOutOfScope: 'Bạn không có quyền xem cuộc gọi của phòng ban này',
  teamOutOfScope: 'Bạn không có quyền xem cuộc gọi của nhóm này',
  badNumber: 'Số tìm kiếm chỉ gồm chữ số, dấu + và tối đa 20 ký tự',
  badId: 'Phải là số nguyên dương',
  badHotline: 'Số hotline chỉ gồm chữ số, dấu + và tối đa 20 ký tự',
  unknownHotline: 'Hotline không thuộc tổng đài của bạn',
} as const;

/** The longest range a report reads, in days (both ends counted). */
export const MAX_REPORT_DAYS = 366;
const VN_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The Vietnam calendar day of an instant, as YYYY-MM-DD. */
export const vnDay = (at: Date): string => new Date(at.getTime() + VN_OFFSET_MS).toISOString().slice(0, 10);
/** The instant a Vietnam day starts (00:00 +07:00); null for a date that does not exist. */
export function vnDayStart(day: string): Date | null {
  if (!DATE_RE.test(day)) return null;
  const d = new Date(`${day}T00:00:00+07:00`);
  return Number.isNaN(d.getTime()) || vnDay(d) !== day ? null : d;
}
const addDays = (day: string, n: number) => vnDay(new Date(vnDayStart(day)!.getTime() + n * DAY_MS));

export const DATE_PRESETS = { today: 'Hôm nay', yesterday: 'Hôm qua', last7: '7 ngày qua', thisMonth: 'Tháng này', lastMonth: 'Tháng trước', custom: 'Tùy chọn' } as const;
export type DatePreset = keyof typeof DATE_PRESETS;

/** The days a preset covers on `now`'s Vietnam day (inclusive); custom has none of its own. */
export function presetRange(preset: DatePreset, now: Date = new Date()): { from: string; to: string } | null {
  const today = vnDay(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  switch (preset) {
    case 'today': return { from: today, to: today };
    case 'yesterday': return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last7': return { from: addDays(today, -6), to: today };
    case 'thisMonth': return { from: monthStart, to: today };
    case 'lastMonth': {
      const lastDay = addDays(monthStart, -1);
      return { from: `${lastDay.slice(0, 7)}-01`, to: lastDay };
    }
    default: return null;
  }
}

const day = v.optional(v.pipe(v.string(), v.check((s) => vnDayStart(s) !== null, REPORT_MSG.badDate)));
const idParam = v.optional(
  v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d{1,9}$/, REPORT_MSG.badId), v.transform(Number), v.minValue(1, REPORT_MSG.badId))], REPORT_MSG.badId),
  '',
);
const count = (max: number, fallback: number) =>
  v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}$/, REPORT_MSG.badId), v.transform(Number), v.minValue(1, REPORT_MSG.badId), v.maxValue(max, REPORT_MSG.badId)), String(fallback));

/** The pieces report filters are made of (call history, summaries, user activity). */
export const reportParams = { day, id: idParam, count };

/**
 * A report's filters: `entries` with `from`/`to` (Vietnam days, both included), checked as one
 * range (the end not before the start, at most MAX_REPORT_DAYS days).
 */
export function reportQuery<const E extends v.ObjectEntries & { from: typeof day; to: typeof day }>(entries: E) {
  type O = v.InferOutput<v.ObjectSchema<E, undefined>>;
  const range = (q: O) => q as { from?: string; to?: string };
  return v.pipe(
    v.object(entries),
    v.forward(v.check<O, string>((o) => { const q = range(o); return !q.from || !q.to || q.to >= q.from; }, REPORT_MSG.endBeforeStart), ['to'] as never),
    v.forward(
      v.check<O, string>((o) => {
        const q = range(o);
        const from = vnDayStart(q.from ?? q.to ?? '');
        const to = vnDayStart(q.to ?? q.from ?? '');
        return !from || !to || (to.getTime() - from.getTime()) / DAY_MS + 1 <= MAX_REPORT_DAYS;
      }, REPORT_MSG.rangeTooLong),
      ['from'] as never,
    ),
  );
}

/**
 * GET /t/:ma_dn/reports/call-history. `from`/`to`: Vietnam days, both included (default: today).
 * `page` gives a numbered page with the total (the screen); `cursor` (the `next` of a previous
 * answer, '' for the first) gives keyset pages without a total (API clients, exports).
 */
export const CallReportQuerySchema = reportQuery({
  from: day,
  to: day,
  direction: v.optional(v.union([v.literal(''), v.picklist(Object.keys(REPORT_DIRECTIONS) as ReportDirection[])], REPORT_MSG.badDirection), ''),
  result: v.optional(v.union([v.literal(''), v.picklist(Object.keys(CALL_RESULTS) as CallResult[])], REPORT_MSG.badResult), ''),
  extension: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d{2,6}$/, REPORT_MSG.unknownExtension))], REPORT_MSG.unknownExtension), ''),
  department_id: idParam,
  team_id: idParam,
  queue_id: idParam,
  search: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\+?\d{0,20}$/, REPORT_MSG.badNumber)), ''),
  /**
   * Calls through this number of the tenant (a hotline: the DID of an inbound call, the caller ID
   * of an outbound one); `*`: through any of the tenant's hotlines (numbers bound to a switchboard).
   */
  hotline: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\*|\+?\d{3,20})?$/, REPORT_MSG.badHotline)), ''),
  page: count(100_000, 1),
  per_page: count(100, PAGE_SIZE),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export type CallReportQuery = v.InferOutput<typeof CallReportQuerySchema>;

/** One call as the history screens show it (numbers already masked by the API where the tenant hides them). */
export interface CallReportRow {
  id: number;
  started_at: string;
  direction: ReportDirection;
  caller: string;
  callee: string;
  did: string | null;
  /** IVR, queue and ring-group names the call went through, in order. */
  path: { type: 'ivr' | 'queue' | 'group'; name: string }[];
  /** Who answered: the extension and the person using it. */
  answered_by: { extension: string; name: string } | null;
  /** Seconds from the start to the answer (to the end for a call nobody answered). */
  wait: number;
  /** Talk time in seconds. */
  billsec: number;
  result: CallResult;
  /** Why it ended so, in Vietnamese ('' for an answered call). */
  reason: string;
  customer: { id: number; name: string; phone: string } | null;
  /**
   * The call's recording (issue 16) when there is one and the viewer holds recording.listen;
   * absent or null otherwise. Played and downloaded through RECORDING_API with the viewer's token.
   */
  recording?: RecordingRef | null;
  /** The voicemail message the call left (issue 16), under the same condition as `recording`. */
  voicemail?: VoicemailRef | null;
}

/** The choices of the filters: what the caller may filter by. */
export interface CallReportOptions {
  extensions: { extension: string; name: string }[];
  departments: { id: number; name: string }[];
  teams: { id: number; name: string; department_id: number }[];
  queues: { id: number; name: string }[];
  /** The tenant's hotlines (numbers bound to a carrier switchboard), national form, with the carrier. */
  hotlines: { number: string; carrier: SwitchboardCarrier; switchboard: string }[];
}

/** The reason of a call refused because no API planned it (down, restarting, its database away: ADR 0046). */
export const SYSTEM_UNAVAILABLE_REASON = 'Hệ thống tạm thời không xử lý được cuộc gọi';

const NO_ANSWER_REASONS: Record<number, string> = {
  487: 'Người gọi gác máy trước khi có người nghe',
  408: 'Không ai nghe máy',
  480: 'Máy nhánh không trực tuyến hoặc không ai nghe máy',
  486: 'Bên nhận đang bận hoặc đã từ chối cuộc gọi',
};

/** The Vietnamese reason of a call record: the plan's own words, else what its final SIP status means. */
export function resultReason(disposition: string, sipCode: number | null, reason: string): string {
  if (reason) return reason;
  if (disposition === 'ANSWERED') return '';
  if (disposition === 'VOICEMAIL') return 'Người gọi được chuyển vào hộp thư thoại';
  if (disposition === 'AUTO') return 'Chỉ lời chào / IVR trả lời, người gọi chưa gặp ai';
  if (sipCode !== null && NO_ANSWER_REASONS[sipCode]) return NO_ANSWER_REASONS[sipCode];
  if (sipCode === null) return 'Cuộc gọi kết thúc không rõ lý do (tổng đài không báo kết thúc)';
  return `${CALL_FAILURE_LABELS[callFailureOf({ status: sipCode })]} (SIP ${sipCode})`;
}

const VN_DATE = new Intl.DateTimeFormat('vi-VN', { timeZone: 'Asia/Ho_Chi_Minh', day: '2-digit', month: '2-digit', year: 'numeric' });
const VN_TIME = new Intl.DateTimeFormat('vi-VN', { timeZone: 'Asia/Ho_Chi_Minh', hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * An instant as every screen writes it: "25/11/2026 14:03" (Vietnam time, 24 hours), whatever the
 * browser's language and zone. (vi-VN's own day-and-month form is "25-11": never used alone.)
 */
export function formatDateTime(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  return `${VN_DATE.format(d)} ${VN_TIME.format(d)}`;
}

/** Duration as mm:ss (SPEC §9; minutes keep counting past 59). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The columns of a call-history export, in order (Vietnamese headers; values as the screen shows them). */
export const CALL_REPORT_EXPORT_HEADERS = [
  'Thời gian', 'Hướng gọi', 'Số gọi', 'Số nhận', 'Số tổng đài', 'Luồng cuộc gọi', 'Máy nhánh nghe', 'Người nghe',
  'Chờ', 'Đàm thoại', 'Kết quả', 'Lý do', 'Khách hàng',
] as const;

/** What each kind of step of a call's path is called. */
export const REPORT_PATH_LABELS = { ivr: 'IVR', queue: 'Hàng đợi', group: 'Nhóm đổ chuông' } as const;

/** One export line's values: Vietnam time as YYYY-MM-DD HH:mm:ss, durations mm:ss, labels in Vietnamese. */
export function callReportCells(r: CallReportRow): string[] {
  const local = new Date(Date.parse(r.started_at) + VN_OFFSET_MS).toISOString();
  return [
    `${local.slice(0, 10)} ${local.slice(11, 19)}`, REPORT_DIRECTIONS[r.direction], r.caller, r.callee, r.did ?? '',
    r.path.map((n) => `${REPORT_PATH_LABELS[n.type]}: ${n.name}`).join(' → '), r.answered_by?.extension ?? '', r.answered_by?.name ?? '',
    formatDuration(r.wait), formatDuration(r.billsec), CALL_RESULTS[r.result], r.reason, r.customer?.name ?? '',
  ];
}
