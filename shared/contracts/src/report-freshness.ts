/**
 * How fresh the reports' figures are (issue 42, ADR 0058). With REPORTS_DATABASE_URL the reports,
 * exports, KPIs' figures and the dashboard's chart read a streaming replica of the database, which
 * may trail the primary; the report screens read this and say so past REPORT_LAG_WARN_SECONDS.
 */
export const REPORTS_API = { freshness: 'reports/freshness' } as const;

export interface ReportFreshness {
  /**
   * Where the reports read now: `primary` (no replica configured), `replica`, or `fallback` (a replica
   * is configured but does not answer: the primary serves the reports meanwhile).
   */
  source: 'primary' | 'replica' | 'fallback';
  /** How far the figures trail the primary, in whole seconds (0 on the primary). */
  lag_seconds: number;
}

/** Past this lag the report screens show a warning: a figure may lack the last few seconds' calls. */
export const REPORT_LAG_WARN_SECONDS = 5;

/** The lag as a person reads it: seconds, then minutes from 90 s, then hours from 90 minutes. */
export function lagWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return `${s} giây`;
  if (s < 90 * 60) return `${Math.round(s / 60)} phút`;
  return `${Math.round(s / 3600)} giờ`;
}

/** The warning the report screens show while the figures trail by more than REPORT_LAG_WARN_SECONDS; null otherwise. */
export function reportLagWarning(f: Partial<ReportFreshness> | null | undefined): string | null {
  if (!f || f.source !== 'replica' || typeof f.lag_seconds !== 'number' || f.lag_seconds <= REPORT_LAG_WARN_SECONDS) return null;
  return `Số liệu báo cáo đang chậm khoảng ${lagWords(f.lag_seconds)} so với hệ thống.`;
}
