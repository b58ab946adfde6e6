import { vnDay, vnDayStart, type CallFigures, type KpiMeasure, type KpiPeriod, type KpiProgress, type KpiStatus } from '@tongdai/contracts';

/**
 * KPI arithmetic as pure functions of the KPI, the clock and the read model's figures (no database,
 * no network), like the routing engine: which window of the Vietnam calendar a KPI is in now, what
 * its actual is, and whether it is on track for the share of the period that has passed.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Days 'YYYY-MM-DD' as UTC dates, so calendar arithmetic needs no time zone. */
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The Vietnam calendar period holding `day`: the day, its week (Monday to Sunday) or its month. */
export function periodDays(period: KpiPeriod, day: string): { first: string; last: string } {
  const d = asDate(day);
  if (period === 'day') return { first: day, last: day };
  if (period === 'week') {
    const back = (d.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    const first = new Date(d.getTime() - back * DAY_MS);
    return { first: dayOf(first), last: dayOf(new Date(first.getTime() + 6 * DAY_MS)) };
  }
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  return { first: dayOf(first), last: dayOf(last) };
}

export interface KpiWindow {
  /** The current period's days (the first period when the KPI starts later). */
  period_from: string;
  period_to: string;
  /** What counts: from the later of the period's start and the KPI's start, to the period's end (exclusive). */
  from: Date;
  end: Date;
  /** The range to read from the rollups now (whole hours, up to the current hour's end); null before the KPI starts. */
  read: { from: Date; to: Date } | null;
  /** Share of [from, end) elapsed, 0..1. */
  elapsed: number;
}

/** Where a KPI is on `now`: the current period, or its first one when it has not started yet. */
export function kpiWindow(kpi: { period: KpiPeriod; start_date: string }, now: Date): KpiWindow {
  const today = vnDay(now);
  const started = kpi.start_date <= today;
  const { first, last } = periodDays(kpi.period, started ? today : kpi.start_date);
  const from = vnDayStart(first > kpi.start_date ? first : kpi.start_date)!;
  const end = new Date(vnDayStart(last)!.getTime() + DAY_MS);
  const upTo = new Date(Math.min(end.getTime(), Math.ceil((now.getTime() + 1) / HOUR_MS) * HOUR_MS));
  const read = started && upTo > from ? { from, to: upTo } : null;
  const elapsed = Math.min(1, Math.max(0, (now.getTime() - from.getTime()) / (end.getTime() - from.getTime())));
  return { period_from: first, period_to: last, from, end, read, elapsed };
}

/** The assignee's figures as the read model gives them: calls they placed, calls they received, both. */
export interface LegFigures {
  placed: CallFigures;
  received: CallFigures;
  all: CallFigures;
}

/** Survey calls the assignee completed in the window (campaign attempts, ADR 0050). */
export interface SurveyFigures {
  survey_calls_completed: number;
}
/** What a KPI's actual is computed from: the call figures, or for "survey calls completed" the attempts. */
export type KpiFigures = LegFigures | SurveyFigures;
const isLegs = (f: KpiFigures): f is LegFigures => 'all' in f;

/** Measures whose actual grows through the period (compared with the elapsed share of the target). */
const CUMULATIVE: ReadonlySet<KpiMeasure> = new Set(['calls_made', 'calls_answered', 'talk_time', 'survey_calls_completed']);

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The actual in the measure's unit, from the read model's figures only: calls placed, received
 * calls answered, talk minutes, answered share of the assignee's calls (%) and average talk
 * seconds per answered call, the mean CSAT score of their rated calls — the same answer rate and
 * averages the reports show for those extensions; survey calls completed from the campaign attempts.
 */
export function actualOf(measure: KpiMeasure, f: KpiFigures): number {
  if (!isLegs(f)) return measure === 'survey_calls_completed' ? f.survey_calls_completed : 0;
  switch (measure) {
    case 'calls_made': return f.placed.calls;
    case 'calls_answered': return f.received.answered;
    case 'talk_time': return round(f.all.talk_sec / 60, 1);
    case 'answer_rate': return round(f.all.answer_rate * 100, 1);
    case 'avg_handle_time': return f.all.avg_talk_sec;
    case 'survey_calls_completed': return 0;
    case 'csat_avg': return f.all.csat_avg ?? 0;
  }
}

/** Whether a rate or an average has anything to be computed from yet (CSAT: a call rated). */
const hasBasis = (measure: KpiMeasure, f: KpiFigures) =>
  !isLegs(f) ? true
  : measure === 'answer_rate' ? f.all.calls > 0
  : measure === 'avg_handle_time' ? f.all.answered > 0
  : measure === 'csat_avg' ? f.all.csat_count > 0
  : true;

/**
 * Progress of a KPI in its window. Cumulative measures are met once the actual reaches the target
 * and on track while it keeps up with the elapsed share of it; the answer rate and the mean CSAT
 * score are on track at or above their target; average handle time is a ceiling, on track at or below it.
 */
export function kpiProgress(kpi: { measure: KpiMeasure; target: number }, w: KpiWindow, f: KpiFigures | null): KpiProgress {
  const base = { period_from: w.period_from, period_to: w.period_to, elapsed: round(w.elapsed, 4) };
  if (!w.read || !f) return { ...base, actual: 0, percent: 0, status: 'not_started' };
  const actual = actualOf(kpi.measure, f);
  const percent = round((actual / kpi.target) * 100, 1);
  let status: KpiStatus;
  if (!hasBasis(kpi.measure, f)) status = 'no_calls';
  else if (CUMULATIVE.has(kpi.measure)) status = actual >= kpi.target ? 'met' : actual >= kpi.target * w.elapsed ? 'on_track' : 'behind';
  else if (kpi.measure === 'avg_handle_time') status = actual <= kpi.target ? 'on_track' : 'behind';
  else status = actual >= kpi.target ? 'on_track' : 'behind';
  return { ...base, actual, percent, status };
}
