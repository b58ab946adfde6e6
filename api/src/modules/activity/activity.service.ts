import {
  activityCells, REPORT_MSG, vnDay, vnDayStart,
  type ActivityDayRow, type ActivityOptions, type ActivityQuery, type ActivityStatus, type ActivityTimeline, type ActivityTimelineQuery, type Paged,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import { sessionEnds } from '../auth/auth.service';
import { extensionDays } from '../reports/read-model.service';
import { viewerScope, type Viewer } from '../reports/reports.service';
import { dayFigures, periodsOf } from './activity-days';
import * as repo from './activity.repository';

const DAY_MS = 86_400_000;

/**
 * Who asks: activity.view reads the tenant; anyone else the people of their scope (the reports'
 * one rule, viewerScope, ADR 0034): a department's manager its accounts, a team's leader the
 * team's, an agent only themselves.
 */
export type ActivityViewer = Viewer;

/** The accounts this viewer may see: undefined for the whole tenant. */
const scopedUsers = async (tx: Queryable, v: ActivityViewer) => (await viewerScope(tx, v))?.userIds;

function badFilter(field: string, message: string): AppError {
  const err = new AppError('VALIDATION_FAILED', [{ field, message }]);
  err.message = message;
  return err;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** Per user and Vietnam day, and one user's day as a timeline (issue 14). */
export function createActivityService(db: Db, now: () => Date = () => new Date()) {
  /** Every row of a query (the screen pages them, the export streams them). */
  async function rows(v: ActivityViewer, q: ActivityQuery): Promise<ActivityDayRow[]> {
    const today = vnDay(now());
    const first = q.from ?? q.to ?? today;
    const last = q.to ?? q.from ?? today;
    const from = vnDayStart(first)!;
    const to = new Date(vnDayStart(last)!.getTime() + DAY_MS);
    return db.withTenant(v.tenantId, async (tx) => {
      const by = {
        departmentId: q.department_id === '' ? undefined : q.department_id,
        teamId: q.team_id === '' ? undefined : q.team_id,
        userId: q.user_id === '' ? undefined : q.user_id,
        userIds: await scopedUsers(tx, v),
        search: q.search || undefined,
      };
      const people = await repo.people(tx, by);
      // An account outside the scope reads like an unknown one.
      if (by.userId !== undefined && !people.length) throw badFilter('user_id', REPORT_MSG.badId);
      if (!people.length) return [];
      const events = await repo.eventsFor(tx, { from, to, userIds: people.map((p) => p.user_id) });
      const ends = await sessionEnds(tx, [...new Set(events.filter((e) => e.kind === 'login' && e.session_id).map((e) => e.session_id!))], now());
      const extensions = people.map((p) => p.extension).filter((e): e is string => !!e);
      const calls = new Map<string, number>();
      if (extensions.length) for (const d of await extensionDays(tx, { from, to, extensions })) calls.set(`${d.extension}|${d.day}`, d.answered);
      const byUser = new Map<number, repo.ActivityEventRow[]>();
      for (const e of events) (byUser.get(e.user_id) ?? byUser.set(e.user_id, []).get(e.user_id)!).push(e);
      const t = now().getTime();
      const out: ActivityDayRow[] = [];
      for (let d = from.getTime(); d < to.getTime() && d <= t; d += DAY_MS) {
        const day = vnDay(new Date(d));
        for (const p of people) {
          const evs = byUser.get(p.user_id) ?? [];
          const fig = dayFigures(periodsOf(evs, ends, t), evs, d, Math.min(d + DAY_MS, t));
          const handled = p.extension ? (calls.get(`${p.extension}|${day}`) ?? 0) : 0;
          if (!fig.active && !handled) continue;
          const { active: _, ...figures } = fig;
          out.push({ ...p, day, ...figures, calls_handled: handled });
        }
      }
      return out.sort((a, b) => b.day.localeCompare(a.day) || a.full_name.localeCompare(b.full_name, 'vi') || a.user_id - b.user_id);
    });
  }

  return {
    rows,
    /** The accounts a viewer may pick in the user filter. */
    options: (v: ActivityViewer): Promise<ActivityOptions> =>
      db.withTenant(v.tenantId, async (tx) => ({
        users: (await repo.people(tx, { userIds: await scopedUsers(tx, v) })).map((p) => ({ id: p.user_id, name: p.extension ? `${p.full_name} (${p.extension})` : p.full_name })),
      })),
    async list(v: ActivityViewer, q: ActivityQuery): Promise<Paged<ActivityDayRow>> {
      const all = await rows(v, q);
      const [page, perPage] = [Number(q.page) || 1, Number(q.per_page) || 10];
      return { data: all.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: all.length } };
    },

    /** Export cells, a page at a time (the reports' CSV/XLSX writers read this). */
    async exportPages(v: ActivityViewer, q: ActivityQuery): Promise<AsyncGenerator<string[][]>> {
      const all = await rows(v, q);
      return (async function* () {
        for (let i = 0; i < all.length; i += 500) yield all.slice(i, i + 500).map(activityCells);
      })();
    },

    /** One user's Vietnam day: sessions, statuses, registrations and the events, clipped to the day. */
    async timeline(v: ActivityViewer, q: ActivityTimelineQuery): Promise<ActivityTimeline> {
      const userId = q.user_id;
      const from = vnDayStart(q.day)!.getTime();
      const to = from + DAY_MS;
      return db.withTenant(v.tenantId, async (tx) => {
        const scope = await scopedUsers(tx, v);
        if (scope && !scope.includes(userId)) throw new AppError('FORBIDDEN');
        const [person] = await repo.people(tx, { userId });
        if (!person) throw badFilter('user_id', REPORT_MSG.badId);
        const events = await repo.eventsFor(tx, { from: new Date(from), to: new Date(to), userIds: [userId] });
        const ends = await sessionEnds(tx, events.filter((e) => e.kind === 'login' && e.session_id).map((e) => e.session_id!), now());
        const t = now().getTime();
        const p = periodsOf(events, ends, t);
        const clip = <S extends { from: number; to: number; open: boolean }>(s: S) => ({
          from: iso(Math.max(s.from, from))!,
          to: s.open && t < to ? null : iso(Math.min(s.to, to)),
        });
        const inDay = <S extends { from: number; to: number }>(s: S) => s.from < to && s.to >= from;
        return {
          user_id: userId,
          full_name: person.full_name,
          day: q.day,
          sessions: p.sessions.filter(inDay).map((s) => ({ ...clip(s), end: s.to < to ? s.end : null })),
          statuses: p.statuses.filter(inDay).map((s) => ({ ...clip(s), status: s.status })),
          registered: p.registered.filter(inDay).map((s) => ({ ...clip(s), extension: s.extension })),
          events: events
            .filter((e) => new Date(e.at).getTime() >= from && new Date(e.at).getTime() < to)
            .map((e) => ({ at: new Date(e.at).toISOString(), kind: e.kind, status: (e.status as ActivityStatus | null) ?? null, extension: e.extension, reason: e.reason })),
        };
      });
    },
  };
}
