import { allNumberForms, REPORT_MSG, type CallReportQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import { existing, extensionsOfOrg, hotlines } from './call-history.repository';
import { viewerScope, type Viewer } from './viewer-scope';

/** A 400 whose message says which filter is wrong (the screen shows the message). */
export function badFilter(field: string, message: string): AppError {
  const err = new AppError('VALIDATION_FAILED', [{ field, message }]);
  err.message = message;
  return err;
}

/** Whose calls a query asks for, once checked against the tenant and the viewer's scope. */
export interface ReportWho {
  /** The extension / department / team filters as extensions (undefined: no such filter). */
  extensions?: string[];
  /** The viewer's scope (undefined: the whole tenant). */
  scope?: string[];
  queueId?: number;
  /** The hotline filter: every form its number may be recorded in. */
  did?: string[];
}

/**
 * The who-filters of every report (history, summaries, carrier view, exports), inside the
 * tenant's transaction: an unknown extension, department, team or queue is a 400; so is one
 * outside what the viewer may see (ADR 0031: the screen never offers it, so asking is a mistake
 * to name, not a silent empty page). null when the viewer's scope is empty (they see nothing).
 */
export async function reportWho(tx: Queryable, v: Viewer, q: CallReportQuery): Promise<ReportWho | null> {
  const ids = {
    departmentId: q.department_id === '' ? undefined : q.department_id,
    teamId: q.team_id === '' ? undefined : q.team_id,
    queueId: q.queue_id === '' ? undefined : q.queue_id,
    extension: q.extension || undefined,
  };
  const anyHotline = q.hotline === '*';
  const did = anyHotline ? (await hotlines(tx)).flatMap((h) => allNumberForms(h.number)) : q.hotline ? allNumberForms(q.hotline) : undefined;
  const found = await existing(tx, { ...ids, numberForms: anyHotline ? undefined : did });
  // Another tenant's number is invisible under RLS: "not yours", like a number that does not exist.
  if (did && !anyHotline && !found.number) throw badFilter('hotline', REPORT_MSG.unknownHotline);
  if (ids.extension && !found.extension) throw badFilter('extension', REPORT_MSG.unknownExtension);
  if (ids.departmentId !== undefined && !found.department) throw badFilter('department_id', REPORT_MSG.unknownDepartment);
  if (ids.teamId !== undefined && !found.team) throw badFilter('team_id', REPORT_MSG.unknownTeam);
  if (ids.queueId !== undefined && !found.queue) throw badFilter('queue_id', REPORT_MSG.unknownQueue);
  const scope = await viewerScope(tx, v);
  if (scope) {
    if (ids.extension && !scope.extensions.includes(ids.extension)) throw badFilter('extension', REPORT_MSG.extensionOutOfScope);
    if (ids.departmentId !== undefined && !scope.departmentIds.includes(ids.departmentId)) throw badFilter('department_id', REPORT_MSG.departmentOutOfScope);
    if (ids.teamId !== undefined && !scope.teamIds.includes(ids.teamId)) throw badFilter('team_id', REPORT_MSG.teamOutOfScope);
    if (scope.extensions.length === 0) return null;
  }
  let extensions: string[] | undefined = ids.extension ? [ids.extension] : undefined;
  if (ids.departmentId !== undefined || ids.teamId !== undefined) {
    const org = await extensionsOfOrg(tx, ids);
    extensions = extensions ? extensions.filter((e) => org.includes(e)) : org;
  }
  return { ...(extensions && { extensions }), ...(scope && { scope: scope.extensions }), ...(ids.queueId !== undefined && { queueId: ids.queueId }), ...(did && { did }) };
}
