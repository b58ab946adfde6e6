import {
  SERIES_HOURLY_MAX_DAYS, vnDay, type CallReportQuery, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { reportWho } from './report-filters';
import type { Viewer } from './viewer-scope';
import { callSeries, departmentTeamSummary, extensionSummary, vnDays, type ReportRange } from './read-model';

const DAY_MS = 86_400_000;

/**
 * Call summaries (issue 13): per extension, per department and team, and the calls-per-hour/day
 * series, for the Vietnam days and filters of a call-history query (direction, result, extension,
 * department, team, queue). Every figure is the read model's (rollups, ADR 0022); the viewer's scope
 * and the filter checks are call history's (reportWho: viewerScope, ADR 0031).
 */
export function createSummaryService(db: Db) {
  /** The range and filters a query means for this viewer, inside its tenant transaction; `empty` when they may see nothing. */
  async function inRange<T>(v: Viewer, q: CallReportQuery, empty: T, read: (tx: Queryable, range: ReportRange) => Promise<T>): Promise<T> {
    const today = vnDay(new Date());
    const days = vnDays(q.from ?? q.to ?? today, q.to ?? q.from ?? today);
    return db.withTenant(v.tenantId, async (tx) => {
      const who = await reportWho(tx, v, q);
      if (who === null) return empty;
      // Rollup rows are per extension: the filter's extensions inside the viewer's scope.
      const extensions = who.extensions && who.scope ? who.extensions.filter((e) => who.scope!.includes(e)) : (who.extensions ?? who.scope);
      return read(tx, {
        ...days,
        ...(extensions && { extensions }),
        ...(q.direction && { direction: q.direction }),
        ...(q.result && { result: q.result }),
        ...(who.queueId !== undefined && { queueId: who.queueId }),
      });
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
