/**
 * The reports read model (ADR 0022): the one place reports, KPIs, the dashboard and /monitor get
 * call figures from. It answers from the rollups only (cdr_daily for whole Vietnam days, cdr_hourly otherwise), never from raw call
 * records, so two screens cannot count differently. Days and hours are Asia/Ho_Chi_Minh.
 * Every function runs inside db.withTenant (RLS supplies the tenant).
 */
import type { Queryable } from '../../db/db';
import * as repo from './read-model.repository';
import type { CallFigures, CallResult } from '@tongdai/contracts';
import type { Sums } from './read-model.repository';

const VN_OFFSET_MS = 7 * 3_600_000;
const HOUR_MS = 3_600_000;

/** What a report shows for a set of calls: one shape, declared once in contracts. */
export type { CallFigures };

export interface ReportRange {
  /** First instant (a whole hour). */
  from: Date;
  /** End instant, exclusive (a whole hour). */
  to: Date;
  /** Only these extensions' calls (an agent's own, a department manager's extensions, an extension/department/team filter). */
  extensions?: readonly string[];
  /** Only calls of this direction, this result, through this queue (the call-history filters). */
  direction?: 'inbound' | 'outbound' | 'internal';
  result?: CallResult;
  queueId?: number;
  /**
   * Only one side of the extensions' calls: 'in' the calls they received (inbound they answered or
   * that rang them alone, internal to them), 'out' those they placed. None: both.
   */
  leg?: 'in' | 'out';
}

/** Thrown for a range the rollups cannot answer exactly; callers map it to a 400. */
export class ReportRangeError extends Error {}

/** The first instant of a Vietnam day 'YYYY-MM-DD'. */
export function vnDayStart(day: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new ReportRangeError(`invalid day ${day}`);
  return new Date(Date.parse(`${day}T00:00:00Z`) - VN_OFFSET_MS);
}

/** Vietnam days `first`..`last` inclusive as a range. */
export function vnDays(first: string, last: string): { from: Date; to: Date } {
  return { from: vnDayStart(first), to: new Date(vnDayStart(last).getTime() + 24 * HOUR_MS) };
}

/** The Vietnam day of an instant, 'YYYY-MM-DD'. */
export const vnDayOf = (at: Date): string => new Date(at.getTime() + VN_OFFSET_MS).toISOString().slice(0, 10);

function checked(r: ReportRange): ReportRange {
  const [from, to] = [r.from.getTime(), r.to.getTime()];
  if (!Number.isFinite(from) || !Number.isFinite(to) || from % HOUR_MS !== 0 || to % HOUR_MS !== 0) {
    throw new ReportRangeError('a report range starts and ends on whole hours');
  }
  if (to <= from) throw new ReportRangeError('a report range ends after it starts');
  return r;
}

function figures(s: Sums): CallFigures {
  return {
    calls: s.calls, calls_in: s.calls_in, calls_out: s.calls_out, calls_internal: s.calls_internal,
    answered: s.answered, voicemail: s.voicemail, auto: s.auto, missed: s.no_answer, busy: s.busy, failed: s.failed, blocked: s.blocked,
    talk_sec: s.billsec, avg_talk_sec: s.answered ? Math.round(s.billsec / s.answered) : 0, wait_sec: s.wait_sec,
    answer_rate: s.calls ? s.answered / s.calls : 0,
    // Post-call CSAT: the mean of the rated calls' scores, one decimal (as the screens show it).
    csat_count: s.csat_count, csat_avg: s.csat_count ? Math.round((s.csat_sum / s.csat_count) * 10) / 10 : null,
  };
}

export interface ExtensionSummary extends CallFigures {
  extension: string;
  user_id: number | null;
  full_name: string | null;
  department_id: number | null;
  team_id: number | null;
}

/**
 * Per extension: calls it received (inbound it answered, internal calls to it), placed
 * (outbound, internal from it), with their outcomes. An internal call counts for both ends.
 */
export async function extensionSummary(tx: Queryable, range: ReportRange): Promise<ExtensionSummary[]> {
  const rows = await repo.sumsByExtension(tx, checked(range));
  return rows.map((r) => ({ extension: r.extension, user_id: r.user_id, full_name: r.full_name, department_id: r.department_id, team_id: r.team_id, ...figures(r) }));
}

export interface ExtensionDay extends CallFigures {
  extension: string;
  /** YYYY-MM-DD, Vietnam. */
  day: string;
}

/** Per extension and Vietnam day (the range must be whole Vietnam days), days without calls left out. */
export async function extensionDays(tx: Queryable, range: ReportRange): Promise<ExtensionDay[]> {
  const r = checked(range);
  if ((r.from.getTime() + VN_OFFSET_MS) % (24 * HOUR_MS) !== 0 || (r.to.getTime() + VN_OFFSET_MS) % (24 * HOUR_MS) !== 0) {
    throw new ReportRangeError('a per-day range is whole Vietnam days');
  }
  const rows = await repo.sumsByExtensionDay(tx, r);
  return rows.map((s) => ({ extension: s.extension, day: s.day, ...figures(s) }));
}

export interface TeamSummary extends CallFigures {
  team_id: number | null;
  team: string | null;
}
export interface DepartmentSummary extends CallFigures {
  department_id: number | null;
  department: string | null;
  teams: TeamSummary[];
}

/** Per department (the sum of its accounts' extensions), with its teams inside. */
export async function departmentTeamSummary(tx: Queryable, range: ReportRange): Promise<DepartmentSummary[]> {
  const rows = await repo.sumsByDepartmentTeam(tx, checked(range));
  const out: DepartmentSummary[] = [];
  for (const r of rows) {
    if (r.level === 'department') out.push({ department_id: r.department_id, department: r.department, ...figures(r), teams: [] });
    else out[out.length - 1]?.teams.push({ team_id: r.team_id, team: r.team, ...figures(r) });
  }
  return out;
}

/** The tenant's (or the scope's) figures for the range, each call once. */
export async function totals(tx: Queryable, range: ReportRange): Promise<CallFigures> {
  return figures(await repo.sumsTotal(tx, checked(range)));
}

/** A set of extensions' figures: the calls they placed, the calls they received, and both. */
export interface LegFigures {
  placed: CallFigures;
  received: CallFigures;
  /** Both legs: the sum of these extensions' rows in extensionSummary. */
  all: CallFigures;
}

const ZERO: Sums = { calls: 0, calls_in: 0, calls_out: 0, calls_internal: 0, answered: 0, voicemail: 0, auto: 0, no_answer: 0, busy: 0, failed: 0, blocked: 0, billsec: 0, wait_sec: 0, answered_sla: 0, csat_count: 0, csat_sum: 0 };
const add = (a: Sums, b: Sums): Sums => Object.fromEntries(Object.keys(ZERO).map((k) => [k, a[k as keyof Sums] + b[k as keyof Sums]])) as unknown as Sums;

/** Figures of a set of extensions (an agent's, a team's, a department's) per leg, for KPIs. No extensions: zeros. */
export async function legFigures(tx: Queryable, range: ReportRange & { extensions: readonly string[] }): Promise<LegFigures> {
  checked(range);
  const rows = range.extensions.length ? await repo.sumsByLeg(tx, range) : [];
  const out = rows.find((r) => r.leg === 'out') ?? ZERO;
  const inn = rows.find((r) => r.leg === 'in') ?? ZERO;
  return { placed: figures(out), received: figures(inn), all: figures(add(out, inn)) };
}

/** A queue's figures (the wall's tile): offered, answered, abandoned, answered within its service level. */
export interface QueueSummary {
  queue_id: number;
  offered: number;
  answered: number;
  abandoned: number;
  answered_sla: number;
  /** answered_sla / offered, 0..1 (0 with nothing offered). */
  service_level: number;
  avg_wait_sec: number;
  avg_talk_sec: number;
}

/** Per queue over the range (from cdr_hourly: any whole hours, e.g. today so far). */
export async function queueSummary(tx: Queryable, range: ReportRange): Promise<QueueSummary[]> {
  const rows = await repo.sumsByQueue(tx, checked(range));
  return rows.map((r) => ({
    queue_id: r.queue_id, offered: r.calls, answered: r.answered, abandoned: r.calls - r.answered, answered_sla: r.answered_sla,
    service_level: r.calls ? r.answered_sla / r.calls : 0,
    avg_wait_sec: r.calls ? Math.round(r.wait_sec / r.calls) : 0,
    avg_talk_sec: r.answered ? Math.round(r.billsec / r.answered) : 0,
  }));
}

/** Today so far in Vietnam, as a range of whole hours (the wall's and the dashboard's "today"). */
export function vnToday(now = new Date()): { from: Date; to: Date } {
  const from = vnDayStart(vnDayOf(now));
  return { from, to: new Date(Math.ceil((now.getTime() + 1) / HOUR_MS) * HOUR_MS) };
}

export interface SeriesPoint extends CallFigures {
  /** The bucket's first instant (ISO, UTC); a day bucket starts at 00:00 Vietnam time. */
  at: string;
}

/**
 * Calls per hour or per Vietnam day over the range, empty buckets as zeros (charts). Hour buckets
 * read cdr_hourly (about one row per 1.4 calls at a busy centre): keep them for ranges of a few
 * days; day buckets over whole days read cdr_daily.
 */
export async function callSeries(tx: Queryable, range: ReportRange & { bucket: 'hour' | 'day' }): Promise<SeriesPoint[]> {
  checked(range);
  if (range.bucket !== 'hour' && range.bucket !== 'day') throw new ReportRangeError('bucket is hour or day');
  const rows = await repo.sumsSeries(tx, range);
  return rows.map((r) => ({ at: r.at, ...figures(r) }));
}
