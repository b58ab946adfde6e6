import { KPI_MSG, type Kpi, type KpiByDepartmentResponse, type KpiInput, type KpiListQuery, type Paged } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import { legFigures } from '../reports/read-model.service';
import { viewerScope, type Viewer } from '../reports/reports.service';
import { kpiProgress, kpiWindow, type KpiFigures } from './progress';
import { surveyCallsCompleted } from '../campaigns/results.service';
import * as repo from './kpis.repository';

/**
 * Who asks: kpi.view reads every KPI of the tenant; anyone else those assigned to them, their team
 * or their department, and those of the people, teams and departments in their scope (the
 * reports' one rule, viewerScope: a manager's department, a leader's team; ADR 0028).
 */
export type KpiViewer = Viewer;

const withOwn = <T>(list: T[], x: T | null) => (x === null || list.includes(x) ? list : [...list, x]);

/** The assignees whose KPIs a viewer without kpi.view sees; null for the whole tenant. */
async function kpisScope(tx: Queryable, v: KpiViewer): Promise<repo.KpiScope | null> {
  const scope = await viewerScope(tx, v);
  if (!scope) return null;
  const own = await repo.ownPlace(tx, v.userId);
  return { userIds: scope.userIds, teamIds: withOwn(scope.teamIds, own.teamId), departmentIds: withOwn(scope.departmentIds, own.departmentId) };
}

const found = <T>(x: T | null | false): T => {
  if (!x) throw new AppError('NOT_FOUND');
  return x;
};

/**
 * KPIs (issue 14, ADR 0028): CRUD, and each KPI's actual so far in its current period, read from
 * the reports read model (rollups) for the assignee's extensions, or for "survey calls completed"
 * from the campaign attempts of the assignee's accounts (ADR 0050), and judged by progress.ts.
 * The KPIs themselves are read and written on `db` (the primary: a KPI just saved is in the list);
 * their figures in a transaction of `figuresDb`, the reports' database (a replica, ADR 0058).
 */
export function createKpisService(db: Db, now: () => Date = () => new Date(), figuresDb: Db = db) {

  /** The row with its progress now. */
  async function withProgress(tx: Queryable, row: repo.KpiRow, at: Date): Promise<Kpi> {
    const w = kpiWindow(row, at);
    let figures: KpiFigures | null = null;
    if (w.read && row.measure === 'survey_calls_completed') {
      // The campaign attempts themselves (the results' rows), from the window's start to now.
      figures = { survey_calls_completed: await surveyCallsCompleted(tx, await repo.assigneeUsers(tx, row.assignee), w.from, new Date(Math.min(at.getTime() + 1, w.end.getTime()))) };
    } else if (w.read) figures = await legFigures(tx, { ...w.read, extensions: await repo.assigneeExtensions(tx, row.assignee) });
    return { ...row, progress: kpiProgress(row, w, figures) };
  }
  /** The rows with their progress now, read in one transaction of the reports' database. */
  const allWithProgress = (tenantId: number, rows: repo.KpiRow[]): Promise<Kpi[]> => {
    if (!rows.length) return Promise.resolve([]);
    const at = now();
    return figuresDb.withTenant(tenantId, async (tx) => {
      const out: Kpi[] = [];
      for (const r of rows) out.push(await withProgress(tx, r, at)); // one statement at a time per transaction
      return out;
    });
  };
  const oneWithProgress = async (tenantId: number, row: repo.KpiRow) => (await allWithProgress(tenantId, [row]))[0];

  async function checkAssignee(tx: Queryable, input: KpiInput): Promise<void> {
    if (!(await repo.assigneeExists(tx, input.assignee))) throw new AppError('VALIDATION_FAILED', [{ field: 'assignee.id', message: KPI_MSG.unknownAssignee }]);
  }

  return {
    async list(v: KpiViewer, q: KpiListQuery): Promise<Paged<Kpi>> {
      const { rows, total } = await db.withTenant(v.tenantId, async (tx) => repo.listKpis(tx, q, await kpisScope(tx, v)));
      return { data: await allWithProgress(v.tenantId, rows), meta: { page: q.page, per_page: q.per_page, total } };
    },

    get: async (v: KpiViewer, id: number): Promise<Kpi> =>
      oneWithProgress(v.tenantId, await db.withTenant(v.tenantId, async (tx) => found(await repo.getKpi(tx, id, await kpisScope(tx, v))))),

    create: async (v: KpiViewer, input: KpiInput): Promise<Kpi> => {
      const row = await db.withTenant(v.tenantId, async (tx) => {
        await checkAssignee(tx, input);
        const id = await repo.insertKpi(tx, v.tenantId, v.userId, input);
        return found(await repo.getKpi(tx, id));
      });
      return oneWithProgress(v.tenantId, row);
    },

    update: async (v: KpiViewer, id: number, input: KpiInput): Promise<Kpi> => {
      const row = await db.withTenant(v.tenantId, async (tx) => {
        found(await repo.getKpi(tx, id));
        await checkAssignee(tx, input);
        found(await repo.updateKpi(tx, id, input));
        return found(await repo.getKpi(tx, id));
      });
      return oneWithProgress(v.tenantId, row);
    },

    async remove(v: KpiViewer, id: number): Promise<void> {
      await db.withTenant(v.tenantId, async (tx) => found(await repo.deleteKpi(tx, id)));
    },

    /** Each department with the KPIs assigned to it and their progress (departments without KPIs are left out). */
    async byDepartment(v: KpiViewer): Promise<KpiByDepartmentResponse> {
      const { rows, names } = await db.withTenant(v.tenantId, async (tx) => {
        const rows = await repo.departmentKpis(tx, await kpisScope(tx, v));
        return { rows, names: await repo.departmentNames(tx, [...new Set(rows.map((k) => k.assignee.id))]) };
      });
      const kpis = await allWithProgress(v.tenantId, rows);
      const data = [...names].map(([id, name]) => ({ department_id: id, department: name, kpis: kpis.filter((k) => k.assignee.id === id) }));
      return { data: data.sort((a, b) => a.department.localeCompare(b.department, 'vi')) };
    },
  };
}
