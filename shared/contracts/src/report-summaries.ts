/**
 * Call summaries (issue 13): /history-cdr-by-exten and /history-by-department-team. The figures
 * come from the reports read model (rollups, ADR 0022) for the same Vietnam-day range filters as
 * call history (CallReportQuerySchema's from/to, presets resolved in the browser).
 */
import { screens } from './routes';

/** What a summary row shows for a set of calls. */
export interface CallFigures {
  calls: number;
  calls_in: number;
  calls_out: number;
  calls_internal: number;
  /** Answered by a person (ADR 0045). */
  answered: number;
  /** Taken by a mailbox (voicemail). */
  voicemail: number;
  /** Answered only by the PBX's menus (IVR, announcement). */
  auto: number;
  /** Not answered (rang out, caller gave up, timeout, gave up in a queue). */
  missed: number;
  busy: number;
  failed: number;
  blocked: number;
  talk_sec: number;
  /** Average talk time of answered calls, whole seconds. */
  avg_talk_sec: number;
  wait_sec: number;
  /** answered / calls, 0..1. */
  answer_rate: number;
  /** Post-call CSAT (issue 34): the calls rated by their caller, and their mean score (1–5, one decimal); null when none. */
  csat_count: number;
  csat_avg: number | null;
}

export interface ExtensionSummaryRow extends CallFigures {
  extension: string;
  user_id: number | null;
  full_name: string | null;
  department_id: number | null;
  team_id: number | null;
}

export interface TeamSummaryRow extends CallFigures {
  team_id: number | null;
  team: string | null;
}
export interface DepartmentSummaryRow extends CallFigures {
  department_id: number | null;
  department: string | null;
  teams: TeamSummaryRow[];
}

export interface SeriesPointRow extends CallFigures {
  /** The bucket's first instant (ISO); a day bucket starts at 00:00 Vietnam time. */
  at: string;
}

/** GET /t/:ma_dn/reports/by-extension */
export interface ExtensionSummaryResponse {
  data: ExtensionSummaryRow[];
}
/** GET /t/:ma_dn/reports/by-department-team: the table and the chart's series. */
export interface DepartmentTeamSummaryResponse {
  data: DepartmentSummaryRow[];
  /** Per hour for ranges of up to SERIES_HOURLY_MAX_DAYS days, else per Vietnam day. */
  series: { bucket: 'hour' | 'day'; points: SeriesPointRow[] };
}

/** Ranges of up to this many days chart calls per hour; longer ones per day. */
export const SERIES_HOURLY_MAX_DAYS = 2;

/** Vietnamese words of the summary screens. */
export const SUMMARY_LABELS = {
  extension: 'Máy nhánh',
  person: 'Người dùng',
  department: 'Phòng ban',
  team: 'Nhóm',
  calls: 'Tổng cuộc gọi',
  calls_in: 'Gọi vào',
  calls_out: 'Gọi ra',
  calls_internal: 'Nội bộ',
  answered: 'Trả lời',
  missed: 'Không trả lời',
  busy: 'Máy bận',
  talk: 'Tổng đàm thoại',
  avg_talk: 'Đàm thoại TB',
  answer_rate: 'Tỷ lệ trả lời',
  csat: 'Hài lòng (CSAT)',
  noDepartment: 'Chưa có phòng ban',
  noTeam: 'Chưa có nhóm',
  byExtensionTitle: 'Thống kê theo máy nhánh',
  byDepartmentTitle: 'Thống kê theo phòng ban, nhóm',
  chartAnsweredMissed: 'Trả lời và không trả lời theo nhóm',
  chartPerHour: 'Cuộc gọi theo giờ',
  chartPerDay: 'Cuộc gọi theo ngày',
  empty: 'Không có cuộc gọi trong khoảng thời gian này',
  total: 'Tổng',
} as const;

const csatScore = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A mean CSAT score (1–5) with one decimal, as Vietnamese writes it: 4.5 → "4,5"; "—" when no call was rated. */
export const formatCsat = (avg: number | null): string => (avg === null ? '—' : csatScore.format(avg));

/** An answer rate as the screens show it: 0.5 → "50%", one decimal when not whole. */
export function formatRate(rate: number): string {
  const pct = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(1).replace('.', ',')}%`;
}

/**
 * The /call-history link showing the calls behind a summary row: the same ?range= (preset or
 * "from~to") and the row's extension, department or team, as the call-history filters read them.
 */
export function callHistoryHref(filters: Readonly<Record<string, string | number | null | undefined>>): string {
  // No URLSearchParams: contracts run without the DOM library (the API too).
  const s = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return s ? `${screens.callHistory}?${s}` : screens.callHistory;
}
