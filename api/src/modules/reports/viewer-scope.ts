import type { FastifyRequest } from 'fastify';
import type { PermissionName } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { authOf, holdsPermission } from '../../http/guards';

/**
 * Who asks: the permission of the surface (report.view, monitor.view, activity.view, kpi.view)
 * reads the whole tenant; anyone else what their place in the organisation lets them see.
 */
export interface Viewer {
  tenantId: number;
  userId: number;
  wholeTenant: boolean;
}

/** The viewer of a request, the whole tenant granted by `wholeTenantBy` (each surface names its own). */
export async function viewerOf(request: FastifyRequest, wholeTenantBy: PermissionName): Promise<Viewer> {
  const auth = authOf(request);
  return { tenantId: auth.tenantId, userId: auth.userId, wholeTenant: await holdsPermission(request, wholeTenantBy) };
}

/**
 * What a viewer without the surface's tenant permission may see (ADR 0031, ADR 0034): themselves
 * and their own extension; as a department's manager (departments.manager_id) every account in
 * that department or its teams; as a team's leader (teams.leader_id) those of the team. The
 * departments and teams are the ones they may filter by. An agent without an extension and
 * without a department or team sees no calls (empty `extensions`) but still themselves (`userIds`).
 */
export interface ViewerScope {
  /** 'department' when they manage one, else 'team' when they lead one, else 'own'. */
  kind: 'department' | 'team' | 'own';
  /** The accounts in scope, the viewer first. */
  userIds: number[];
  extensions: string[];
  departmentIds: number[];
  teamIds: number[];
}

/**
 * The one answer to "whose calls and whose people may this viewer see", used by every report
 * (history, summaries, the carrier view, exports), the monitor's wall and sockets, user activity
 * and KPIs: undefined for the whole tenant, else the viewer's scope. Runs inside withTenant (RLS
 * keeps it to the tenant).
 */
export async function viewerScope(tx: Queryable, v: Viewer): Promise<ViewerScope | undefined> {
  if (v.wholeTenant) return undefined;
  const { rows } = await tx.query<Omit<ViewerScope, 'kind'> & { leads: boolean }>(
    `with d as (select id from departments where manager_id = $1),
          t as (select id from teams where leader_id = $1 or department_id in (select id from d)),
          u as (select id from users where id = $1 or department_id in (select id from d) or team_id in (select id from t))
     select coalesce((select array_agg(id order by id <> $1, id) from u), '{}') as "userIds",
            coalesce((select array_agg(s.extension order by length(s.extension), s.extension) from subscribers s where s.user_id in (select id from u)), '{}') as extensions,
            coalesce((select array_agg(id order by id) from d), '{}') as "departmentIds",
            coalesce((select array_agg(id order by id) from t), '{}') as "teamIds",
            exists (select 1 from teams where leader_id = $1) as leads`,
    [v.userId],
  );
  const { leads, ...scope } = rows[0];
  return { kind: scope.departmentIds.length ? 'department' : leads ? 'team' : 'own', ...scope };
}
