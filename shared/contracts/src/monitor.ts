/**
 * Live monitoring (issue 14): what the /monitor wall and the dashboard read. The API answers a
 * snapshot (GET /t/{ma_dn}/monitor/snapshot, permission monitor.view, or an agent's own view) and
 * then pushes events on the tenant's real-time channel (PbxCallEvent plus the MonitorEvent kinds
 * below), filtered on the server by what the socket's user may see. After a reconnect the screen
 * takes a new snapshot, so nothing stays stale.
 */
import type { CampaignFamily, DialerProgress } from './campaigns';
import type { CallFigures, SeriesPointRow } from './report-summaries';

/**
 * The wall's API, relative to the tenant's base (/t/{ma_dn}/): GET → { data: MonitorSnapshot }.
 * Any user of the tenant may ask; the answer is scoped like the events (monitor.view → tenant,
 * a department's manager → its extensions, a team's leader → the team's, anyone else → their own
 * extension; the reports' scope rule, ADR 0034).
 */
export const MONITOR_API = { snapshot: 'monitor/snapshot', hourly: 'monitor/hourly' } as const;

/**
 * GET monitor/hourly → { data: MonitorHourly }: the dashboard's calls per hour, today (Vietnam day,
 * 24 points) and the same weekday last week, in the viewer's scope, from the read model.
 */
export interface MonitorHourly {
  today: SeriesPointRow[];
  last_week: SeriesPointRow[];
}

/** Where a live call is now. */
export type LiveCallState = 'ringing' | 'queued' | 'talking';

/** One step of the path a call took (IVR → queue → agent), with the configured name. */
export interface LiveRouteStep {
  type: string;
  id: string;
  name: string;
}

export interface LiveCall {
  call_id: string;
  direction: 'inbound' | 'outbound' | 'internal';
  caller: string;
  callee: string;
  /** The tenant's number the call came in on (inbound), null otherwise. */
  did: string | null;
  route: LiveRouteStep[];
  state: LiveCallState;
  /** The queue it waits in or was answered from. */
  queue_id: number | null;
  /** Extensions ringing now (state ringing). */
  ringing: string[];
  /** The agent talking (state talking). */
  extension: string | null;
  /** The calling extension (outbound and internal calls). */
  caller_extension: string | null;
  /** Epoch milliseconds. */
  started_at: number;
  queued_at: number | null;
  answered_at: number | null;
}

export interface AgentLive {
  extension: string;
  user_id: number | null;
  full_name: string | null;
  department_id: number | null;
  team_id: number | null;
  /** Registered to Kamailio now (browser or desk phone). */
  registered: boolean;
  /** SPEC status_activity of the extension's user (3 = phone stopped); null without a user. */
  status_activity: number | null;
  /** The call the agent is in (ringing to them, or talking), null when free. */
  call_id: string | null;
  /**
   * Calls the agent answered today (Vietnam day; received and answered by them in person, ADR 0045),
   * from the read model: the KPIs' calls answered. Not their calls answered at the other end.
   */
  handled_today: number;
}

/** Thresholds of a queue's tile: green below amber, amber below red (seconds of the longest wait). */
export interface QueueThresholds {
  /** Service level: answered within this many seconds (default 20). */
  sla_seconds: number;
  amber_wait_seconds: number;
  red_wait_seconds: number;
}

export interface QueueLive extends QueueThresholds {
  queue_id: number;
  name: string;
  /** Callers waiting now, longest first. */
  waiting: { call_id: string; caller: string; since: number }[];
  agents_total: number;
  agents_free: number;
  agents_busy: number;
  /** Today's figures (Vietnam day) from the read model. */
  today: {
    offered: number;
    answered: number;
    abandoned: number;
    /** Share of offered calls answered within sla_seconds, 0..1. */
    service_level: number;
    avg_wait_sec: number;
    avg_talk_sec: number;
  };
}

/**
 * A campaign the server dials for (progressive, predictive, or an automated voice survey), running or
 * paused, with its dialer's figures now and so far (issue 34): on the wall of the tenant's watchers
 * (monitor.view) only. A voice survey has no agents: its `talking` and `ready` are 0.
 */
export interface CampaignLive {
  campaign_id: number;
  family: CampaignFamily;
  name: string;
  mode: 'progressive' | 'predictive' | 'voice';
  state: 'running' | 'paused';
  dialer: DialerProgress;
}

export interface MonitorSnapshot {
  /** Server time, epoch ms (durations tick from it). */
  at: number;
  /** 'tenant', 'department' (a manager), 'team' (a leader) or 'own' (an agent): what this viewer may see. */
  scope: 'tenant' | 'department' | 'team' | 'own';
  agents: AgentLive[];
  queues: QueueLive[];
  calls: LiveCall[];
  /** The dialer campaigns running or paused, ordered by name (the tenant's watchers; [] for any other scope). */
  campaigns: CampaignLive[];
  /** Today's figures of what the viewer may see (the dashboard's tiles), from the read model. */
  today: CallFigures;
  /**
   * The position on the tenant's channel (PbxCallEvent's and MonitorEvent's `seq`) of the last event
   * this snapshot includes: read before the state, so every event up to it is in, and maybe a newer
   * one whose change was stored before it was numbered (which is why applyLiveEvent may see an event
   * twice). The screen applies on top only the events after it. Absent when the channel could not say
   * (Redis away): every event heard while it was asked for is applied on top.
   */
  seq?: number;
}

interface MonitorEventBase {
  kind: 'tongdai.monitor';
  version: 1;
  at: number;
  /** The event's position on the tenant's channel, as PbxCallEvent's `seq`. */
  seq?: number;
}

/** Events beside PbxCallEvent that move the wall. */
export type MonitorEvent =
  /** A call entered a queue (it now waits). */
  | (MonitorEventBase & { type: 'queued'; callId: string; queueId: number; caller: string })
  /** An extension registered or unregistered. */
  | (MonitorEventBase & { type: 'registration'; extension: string; registered: boolean })
  /** A user changed their activity status (PUT /update-activity-status). */
  | (MonitorEventBase & { type: 'activity'; extension: string | null; userId: number; status_activity: number })
  /** A dialer campaign's figures moved (a call placed, answered, connected or ended, an agent ready or not, its state); null: off the wall (ended, no longer dialled). */
  | (MonitorEventBase & { type: 'campaign'; campaignId: number; campaign: CampaignLive | null });
