import type { AgentLive, LiveCall, MonitorHourly, MonitorSnapshot, QueueLive } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import type { Audience, CallEventHub } from '../realtime/call-event-hub';
import type { LiveEntry } from '../realtime/live-state';
import { callSeries, extensionSummary, queueSummary, totals, vnDayOf, vnDays, vnToday } from '../reports/read-model.service';
import { viewerScope, type Viewer } from '../reports/reports.service';
import { dialerCampaigns } from '../campaigns/dialer-live.service';
import * as repo from './monitor.repository';
import { privilegesOfUser } from '../auth/auth.service';
import { PERM } from '@tongdai/contracts';

/**
 * What a user may watch live (issue 14): the reports' one scope rule (viewerScope, ADR 0034) with
 * monitor.view granting the whole tenant: a department's manager watches the department's
 * extensions, a team's leader the team's, anyone else their own extension's calls. The same
 * scope filters the snapshot and every socket's events.
 */
export interface MonitorViewer {
  tenantId: number;
  scope: MonitorSnapshot['scope'];
  /** The extensions in scope (unused for 'tenant'). */
  extensions: ReadonlySet<string>;
}

/**
 * Whether the phone of `extension` may join an agent's call (a supervisor's feature code, ADR
 * 0042): its account holds monitor.spy (super-admin: everything). A phone nobody uses may not.
 */
export async function maySpy(db: Db, tenantId: number, extension: string): Promise<boolean> {
  return db.withTenant(tenantId, async (tx) => {
    const userId = await repo.userOfExtension(tx, extension);
    if (userId === null) return false;
    const p = await privilegesOfUser(tx, userId);
    return p.superAdmin || p.permissions.has(PERM.monitor.spy);
  });
}

export async function monitorViewer(db: Db, who: Viewer): Promise<MonitorViewer> {
  const scope = await db.withTenant(who.tenantId, (tx) => viewerScope(tx, who));
  if (!scope) return { tenantId: who.tenantId, scope: 'tenant', extensions: new Set() };
  return { tenantId: who.tenantId, scope: scope.kind, extensions: new Set(scope.extensions) };
}

/**
 * May this viewer receive an event with this audience? The tenant's watchers: all. Others: when
 * the event concerns one of their extensions (rang, answered, placed, registered); a manager also
 * (or a team's leader) sees callers waiting for their agents. An event published without an audience: the tenant's watchers only.
 */
export function mayReceive(viewer: MonitorViewer, audience: Audience | undefined): boolean {
  if (viewer.scope === 'tenant') return true;
  if (!audience) return false;
  if (audience.extensions.some((e) => viewer.extensions.has(e))) return true;
  return viewer.scope !== 'own' && !!audience.queueAgents?.some((e) => viewer.extensions.has(e));
}

const visibleCall = (viewer: MonitorViewer, c: LiveEntry) => mayReceive(viewer, { extensions: c.involved, queueAgents: c.queue_agents });

function publicCall({ involved: _i, queue_agents: _q, expires_at: _e, ...call }: LiveEntry): LiveCall {
  return call;
}

export function createMonitorService(db: Db, hub: Pick<CallEventHub, 'live' | 'position'>) {
  const { live } = hub;
  return {
    /** The wall as it is now, for this viewer; every "today" figure from the read model (Vietnam day). */
    async snapshot(viewer: MonitorViewer, now = new Date()): Promise<MonitorSnapshot> {
      // The channel's position first, then the state: each event is published once what it announces
      // is stored (the live state, the call's record), so every event up to this position is in what
      // is read next. One published meanwhile may be in it too, and is then applied again by the
      // screen, which changes nothing (applyLiveEvent). Read the other way round, the position could
      // name an event whose change the state read before missed: lost for good.
      const seq = await hub.position(viewer.tenantId);
      const [entries, registered] = await Promise.all([live.calls(viewer.tenantId), live.registrations.registered(viewer.tenantId)]);
      const scoped = viewer.scope === 'tenant' ? undefined : [...viewer.extensions];
      const range = { ...vnToday(now), ...(scoped && { extensions: scoped }) };
      const read = await db.withTenant(viewer.tenantId, async (tx) => ({
        agents: await repo.agents(tx),
        queues: await repo.queues(tx),
        // "Đã nghe hôm nay": calls the agent answered (received), not calls of theirs answered at
        // the other end (placed), as the KPIs' calls answered and the wall's live events count them.
        received: await extensionSummary(tx, { ...range, leg: 'in' }),
        perQueue: await queueSummary(tx, { from: range.from, to: range.to }),
        // An empty scope (an agent without an extension) reads as zeros: `any('{}')` matches nothing.
        today: await totals(tx, range),
        // The dialer campaigns: the tenant's figures, for the tenant's watchers only.
        campaigns: viewer.scope === 'tenant' ? await dialerCampaigns(tx) : [],
      }));
      const calls = entries.filter((c) => visibleCall(viewer, c)).sort((a, b) => a.started_at - b.started_at);
      const inScope = (ext: string) => viewer.scope === 'tenant' || viewer.extensions.has(ext);
      // Who is in a call now (ringing to them, talking, placing it), over the tenant's calls.
      const callOf = new Map<string, string>();
      for (const c of entries) for (const ext of [c.caller_extension, c.extension, ...c.ringing]) if (ext) callOf.set(ext, c.call_id);
      const handled = new Map(read.received.map((e) => [e.extension, e.answered]));
      const agents: AgentLive[] = read.agents.filter((a) => inScope(a.extension)).map((a) => ({
        extension: a.extension, user_id: a.user_id, full_name: a.full_name, department_id: a.department_id, team_id: a.team_id,
        registered: registered.has(a.extension), status_activity: a.user_id === null ? null : a.status_activity,
        call_id: callOf.get(a.extension) ?? null, handled_today: handled.get(a.extension) ?? 0,
      }));
      const status = new Map(read.agents.map((a) => [a.extension, a.status_activity]));
      const figures = new Map(read.perQueue.map((q) => [q.queue_id, q]));
      const queues: QueueLive[] = read.queues
        .filter((q) => viewer.scope === 'tenant' || q.agents.some(inScope))
        .map((q) => {
          const busy = q.agents.filter((a) => callOf.has(a)).length;
          const free = q.agents.filter((a) => !callOf.has(a) && registered.has(a) && (status.get(a) ?? 1) === 1).length;
          const f = figures.get(q.id);
          return {
            queue_id: q.id, name: q.name, sla_seconds: q.sla_seconds, amber_wait_seconds: q.amber_wait_seconds, red_wait_seconds: q.red_wait_seconds,
            waiting: calls
              .filter((c) => c.state === 'queued' && c.queue_id === q.id)
              .sort((a, b) => (a.queued_at ?? a.started_at) - (b.queued_at ?? b.started_at))
              .map((c) => ({ call_id: c.call_id, caller: c.caller, since: c.queued_at ?? c.started_at })),
            agents_total: q.agents.length, agents_free: free, agents_busy: busy,
            today: {
              offered: f?.offered ?? 0, answered: f?.answered ?? 0, abandoned: f?.abandoned ?? 0,
              service_level: f?.service_level ?? 0, avg_wait_sec: f?.avg_wait_sec ?? 0, avg_talk_sec: f?.avg_talk_sec ?? 0,
            },
          };
        });
      return { at: now.getTime(), scope: viewer.scope, agents, queues, calls: calls.map(publicCall), campaigns: read.campaigns, today: read.today, ...(seq !== undefined && { seq }) };
    },
  };
}

/** Today's Vietnam day and the same weekday a week before, as whole-day ranges. */
function dashboardDays(now: Date) {
  const today = vnDayOf(now);
  const weekAgo = vnDayOf(new Date(now.getTime() - 7 * 86_400_000));
  return { today: vnDays(today, today), lastWeek: vnDays(weekAgo, weekAgo) };
}

/** The dashboard's chart: calls per hour today and the same weekday last week, in the viewer's scope. */
export async function hourly(db: Db, viewer: MonitorViewer, now = new Date()): Promise<MonitorHourly> {
  const days = dashboardDays(now);
  const extensions = viewer.scope === 'tenant' ? undefined : [...viewer.extensions];
  return db.withTenant(viewer.tenantId, async (tx) => ({
    today: await callSeries(tx, { ...days.today, bucket: 'hour', ...(extensions && { extensions }) }),
    last_week: await callSeries(tx, { ...days.lastWeek, bucket: 'hour', ...(extensions && { extensions }) }),
  }));
}

export type MonitorService = ReturnType<typeof createMonitorService>;
