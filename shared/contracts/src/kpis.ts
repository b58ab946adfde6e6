import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { MSG } from './messages';
import { requiredRef } from './ref';
import { vnDay, vnDayStart } from './reports';
import type { ContactResult } from './campaigns';
import { CSAT_SCORE } from './media';

/**
 * KPIs (issue 14): a target for a measure over a period (Vietnam calendar day, week from Monday,
 * month), assigned to an agent, a team or a department. Actuals come from the reports read model
 * (ADR 0022, ADR 0028); the API computes them, the screens only show them.
 */

/**
 * What a KPI can measure, with the unit its target and actual are written in. "Survey calls
 * completed" counts the assignee's attempts in survey campaigns ended with a result of
 * SURVEY_COMPLETED_RESULTS (the campaign results' own rows, ADR 0050).
 */
export const KPI_MEASURES = {
  calls_made: { label: 'Số cuộc gọi ra', unit: 'cuộc' },
  calls_answered: { label: 'Số cuộc gọi đã nghe', unit: 'cuộc' },
  talk_time: { label: 'Thời gian đàm thoại', unit: 'phút' },
  answer_rate: { label: 'Tỷ lệ trả lời', unit: '%' },
  avg_handle_time: { label: 'Thời gian xử lý trung bình', unit: 'giây' },
  survey_calls_completed: { label: 'Số cuộc gọi khảo sát hoàn thành', unit: 'cuộc' },
  /** Post-call CSAT (issue 34): the mean score (1–5) the assignee's callers gave their calls. */
  csat_avg: { label: 'Điểm hài lòng trung bình (CSAT)', unit: 'điểm' },
} as const;
export type KpiMeasure = keyof typeof KPI_MEASURES;

/**
 * A survey call is completed when the agent ends it "Đồng ý" (the contact took the survey): "Từ chối",
 * "Hẹn gọi lại", "Sai số", "Không nghe máy", "Máy bận" and Decree 91 refusals are attempts, not surveys done.
 */
export const SURVEY_COMPLETED_RESULTS = ['agreed'] as const satisfies readonly ContactResult[];

export const KPI_PERIODS = { day: 'Ngày', week: 'Tuần', month: 'Tháng' } as const;
export type KpiPeriod = keyof typeof KPI_PERIODS;

export const KPI_ASSIGNEE_TYPES = { user: 'Nhân viên', team: 'Nhóm', department: 'Phòng ban' } as const;
export type KpiAssigneeType = keyof typeof KPI_ASSIGNEE_TYPES;

export const KPI_MSG = {
  invalid: 'Giá trị không hợp lệ',
  targetNumber: 'Chỉ tiêu phải là một số',
  targetPositive: 'Chỉ tiêu phải lớn hơn 0',
  targetTooLarge: 'Chỉ tiêu quá lớn',
  rateOver100: 'Tỷ lệ không được vượt quá 100%',
  csatRange: 'Điểm hài lòng phải từ 1 đến 5',
  badDate: 'Ngày không hợp lệ',
  startInPast: 'Ngày bắt đầu không được ở trong quá khứ',
  unknownAssignee: 'Người hoặc nhóm được giao không tồn tại',
} as const;

const oneOf = <K extends string>(keys: Record<K, unknown>) =>
  v.pipe(
    v.string(MSG.required),
    v.trim(),
    v.nonEmpty(MSG.required),
    v.check((x) => Object.hasOwn(keys, x), KPI_MSG.invalid),
    v.transform((x) => x as K),
  );

/** A positive number, typed as text in the form ("1,5" reads as 1.5) or sent as a number. */
const target = v.pipe(
  v.union([v.number(KPI_MSG.targetNumber), v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.transform((x) => Number(x.replace(',', '.'))))], MSG.required),
  v.check((x) => Number.isFinite(x), KPI_MSG.targetNumber),
  v.check((x) => x > 0, KPI_MSG.targetPositive),
  v.maxValue(1_000_000_000, KPI_MSG.targetTooLarge),
);

const startDate = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.check((x) => vnDayStart(x) !== null, KPI_MSG.badDate));

const fields = {
  name: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(255, 'Tối đa 255 ký tự')),
  measure: oneOf<KpiMeasure>(KPI_MEASURES),
  target,
  period: oneOf<KpiPeriod>(KPI_PERIODS),
  start_date: startDate,
  assignee: v.object({ type: oneOf<KpiAssigneeType>(KPI_ASSIGNEE_TYPES), id: requiredRef }, MSG.required),
};

const KpiUpdateObject = v.object(fields);
const KpiCreateObject = v.object({ ...fields, start_date: v.pipe(startDate, v.check((x) => x >= vnDay(new Date()), KPI_MSG.startInPast)) });
type Fields = v.InferOutput<typeof KpiUpdateObject>;
/** A rate is at most 100 %: said under the target. */
const rateAtMost100 = () => v.forward<Fields, v.CheckIssue<Fields>, ['target']>(
  v.check((k) => k.measure !== 'answer_rate' || k.target <= 100, KPI_MSG.rateOver100),
  ['target'],
);

/** A CSAT target is a score callers can give (CSAT_SCORE: 1–5): said under the target. */
const csatOnScale = () => v.forward<Fields, v.CheckIssue<Fields>, ['target']>(
  v.check((k) => k.measure !== 'csat_avg' || (k.target >= CSAT_SCORE.min && k.target <= CSAT_SCORE.max), KPI_MSG.csatRange),
  ['target'],
);

/** Editing a KPI: same rules as creating it, except that its start may already be past. */
export const KpiUpdateSchema = v.pipe(KpiUpdateObject, rateAtMost100(), csatOnScale());
/** Creating a KPI: its start date is today or later (Vietnam calendar). */
export const KpiCreateSchema = v.pipe(KpiCreateObject, rateAtMost100(), csatOnScale());
export type KpiInput = v.InferOutput<typeof KpiUpdateSchema>;

const page = (fallback: number, max: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(KPI_MSG.invalid), v.minValue(1, KPI_MSG.invalid), v.maxValue(max, KPI_MSG.invalid)), fallback);
const filterOf = <K extends string>(keys: Record<K, unknown>) =>
  v.optional(v.pipe(v.string(), v.check((x) => x === '' || Object.hasOwn(keys, x), KPI_MSG.invalid), v.transform((x) => x as K | '')), '');

/** GET /kpis: page of 10, search by name, filters by period and assignee type ("" = all). */
export const KpiListQuerySchema = v.object({
  page: page(1, 1_000_000),
  per_page: page(PAGE_SIZE, 100),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  period: filterOf<KpiPeriod>(KPI_PERIODS),
  assignee_type: filterOf<KpiAssigneeType>(KPI_ASSIGNEE_TYPES),
});
export type KpiListQuery = v.InferOutput<typeof KpiListQuerySchema>;

/** Where a KPI stands in its current period ('no_calls': a rate or an average with nothing to average yet). */
export type KpiStatus = 'not_started' | 'no_calls' | 'on_track' | 'behind' | 'met';

export interface KpiProgress {
  /** The current period's first Vietnam day and its last (inclusive). */
  period_from: string;
  period_to: string;
  /** The actual so far, in the measure's unit (rates and averages over the calls so far). */
  actual: number;
  /** actual / target × 100 (for average handle time, a ceiling: how much of it is used). */
  percent: number;
  /** Share of the period elapsed, 0..1. */
  elapsed: number;
  status: KpiStatus;
}

export interface Kpi extends Fields {
  id: number;
  /** The agent's, team's or department's name; null once it was deleted. */
  assignee_name: string | null;
  progress: KpiProgress;
  created_at: string;
  updated_at: string;
}

/** GET /kpis/by-department: each department with the KPIs assigned to it. */
export interface KpiDepartmentRow {
  department_id: number;
  department: string;
  kpis: Kpi[];
}
export interface KpiByDepartmentResponse {
  data: KpiDepartmentRow[];
}

export const KPI_STATUS_LABELS: Record<KpiStatus, string> = {
  not_started: 'Chưa bắt đầu',
  no_calls: 'Chưa có cuộc gọi',
  on_track: 'Đúng tiến độ',
  behind: 'Chậm tiến độ',
  met: 'Đã đạt',
};
