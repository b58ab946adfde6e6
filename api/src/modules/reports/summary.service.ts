import {
  SERIES_HOURLY_MAX_DAYS, vnDay, type CallReportQuery, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { viewerScope, type Viewer } from './call-history.service';
import { callSeries, departmentTeamSummary, extensionSummary, vnDays, type ReportRange } from './read-model';

const DAY_MS = 86_400_000;

/**
 * Call summaries (issue 13): per extension, per department and team, and the calls-per-hour/day
 * series, for the Vietnam days of a call-history query. Every figure is the read model's (rollups,
 * ADR 0022); the viewer's scope is call history's (report.view: the tenant, else their own extension).
 */
export function createSummaryService(db: Db) {
  /** The range a query means for this viewer, inside its tenant transaction; null when they may see nothing. */
  async function inRange<T>(v: Viewer, q: CallReportQuery, empty: T, read: (tx: Queryable, range: ReportRange) => Promise<T>): Promise<T> {
    const today = vnDay(new Date());
    const days = vnDays(q.from ?? q.to ?? today, q.to ?? q.from ?? today);
    return db.withTenant(v.tenantId, async (tx) => {
      const extensions = await viewerScope(tx, v);
      if (extensions === null) return empty;
      return read(tx, { ...days, ...(extensions && { extensions }) });
    });
  }

  return {
    async byExtension(v: Viewer, q: CallReportQuery): Promise<ExtensionSummaryResponse> {
      return { data: await inRange(v, q, [], extensionSummary) };
    },

    /** Departments with their teams, and calls per hour (ranges up to two days) or per Vietnam day. */
    async byDepartmentTeam(v: Viewer, q: CallReportQuery): Promise<DepartmentTeamSummaryResponse> {
      return inRange(v, q, { data: [], series: { bucket: 'hour' as const, points: [] } }, async (tx, range) => {
        const bucket = range.to.getTime() - range.from.getTime() <= SERIES_HOURLY_MAX_DAYS * DAY_MS ? 'hour' : 'day';
        const data = await departmentTeamSummary(tx, range);
        return { data, series: { bucket, points: await callSeries(tx, { ...range, bucket }) } };
      });
    },
  };
}
