import type { Queryable } from '../../db/db';

/** Who asks: report.view reads the whole tenant; anyone else what their place in the organisation lets them see. */
export interface Viewer {
  tenantId: number;
  userId: number;
  wholeTenant: boolean;
}

/**
 * What a viewer without report.view may see (ADR 0031): their own extension; as a department's
 * manager (departments.manager_id) the extensions of every account in that department or its
 * teams; as a team's leader (teams.leader_id) those of the team. The departments and teams are
 * the ones they may filter by. An agent without an extension and without a department or team
 * has an empty scope: they see no calls.
 */
export interface ViewerScope {
  extensions: string[];
  departmentIds: number[];
  teamIds: number[];
}

/**
 * The one answer to "whose calls may this viewer see", used by every report (history, summaries,
 * the carrier view, exports) and by KPIs and the monitor: undefined for the whole tenant
 * (report.view), else the viewer's scope. Runs inside withTenant (RLS keeps it to the tenant).
 */
export async function viewerScope(tx: Queryable, v: Viewer): Promise<ViewerScope | undefined> {
  if (v.wholeTenant) return undefined;
  const { rows } = await tx.query<ViewerScope>(
    `with d as (select id from departments where manager_id = $1),
          t as (select id from teams where leader_id = $1 or department_id in (select id from d)),
          u as (select id from users where id = $1 or department_id in (select id from d) or team_id in (select id from t))
     select coalesce((select array_agg(s.extension order by length(s.extension), s.extension) from subscribers s where s.user_id in (select id from u)), '{}') as extensions,
            coalesce((select array_agg(id order by id) from d), '{}') as "departmentIds",
            coalesce((select array_agg(id order by id) from t), '{}') as "teamIds"`,
    [v.userId],
  );
  return rows[0];
}


