import type { Destination, DestinationValue, QueueStrategy, RingStrategy, SpyMode } from '@tongdai/contracts';

/**
 * Plan format of the routing engine (see README.md beside this file). A plan is data: Kamailio and
 * the media worker (issue 7) execute its steps in order; a step that ends without an answer hands
 * the call to the next step.
 */

export type CallDirection = 'inbound' | 'internal' | 'outbound';

export interface CallInput {
  /** Caller number: an external number (inbound) or the calling extension (internal/outbound). */
  from: string;
  /** A DID of the tenant (inbound), an extension (internal) or the number an extension dialled (outbound). */
  to: string;
  direction: CallDirection;
  fromExtension?: string;
  at: Date;
}

/** An agent's figures in one queue (Asterisk's member statistics): calls taken from it, when the last one ended. */
export interface AgentStats {
  calls: number;
  lastCallAt: Date | null;
}

export interface LiveState {
  registered: ReadonlySet<string>;
  busy: ReadonlySet<string>;
  lastAgent(caller: string): { extension: string; at: Date } | null;
  /**
   * Queue id → its agents' statistics (leastrecent, fewestcalls). Kept in PostgreSQL
   * (queue_agent_stats): every API instance plans with the same figures, and a restart keeps them.
   */
  queueStats: ReadonlyMap<number, ReadonlyMap<string, AgentStats>>;
  /** memoryKey(type, id) → the extension that answered that queue's last call (rrmemory), from the same table. */
  memory: ReadonlyMap<string, string>;
  /** Random source in [0, 1) for the random strategies (tests inject a seeded one). */
  random?: () => number;
  /**
   * A campaign call (ADR 0050 slice 3): the calling extension's agent was allowed "Gọi" to this number
   * moments ago, so the call goes out with the campaign's hotline as caller ID, through its switchboard.
   */
  campaignCaller?: CampaignCaller | null;
}

/** The campaign whose allowed attempt this outbound call is, and its hotline (any form). */
export interface CampaignCaller {
  campaignId: number;
  hotline: string;
}

/** One object the call went through, for the CDR's "route taken". */
export interface RouteNode {
  type: DestinationValue | 'inbound' | 'outbound' | 'extension';
  id: string;
  name: string;
  /** Time conditions: which branch was taken. */
  branch?: 'matched' | 'unmatched';
}

export type RejectCode = 403 | 404 | 480 | 482 | 486 | 603;
export type RejectReason =
  | 'blocked_in'
  | 'blocked_out'
  | 'international'
  | 'premium'
  | 'no_route'
  | 'unknown_did'
  | 'did_inactive'
  | 'unknown_extension'
  | 'missing_destination'
  | 'offline'
  | 'busy'
  | 'loop'
  /** A supervisor's feature code (ADR 0042): the caller may not monitor calls / the agent has no call to join. */
  | 'spy_forbidden'
  | 'spy_no_call';

export interface RingTarget {
  extension: string;
  /** Seconds this target rings (serial: its turn; parallel: same as the step's timeout). */
  timeout: number;
}

export interface RingStep {
  kind: 'ring';
  /** parallel: fork to every target at once; serial: one after the other, each for its timeout. */
  mode: 'parallel' | 'serial';
  targets: RingTarget[];
  /** Total seconds of the step (parallel: ring time; serial: sum of the targets' timeouts). */
  timeout: number;
  source: RouteNode;
}

export interface PlayStep {
  kind: 'play';
  /** Audio file ids (greetings) played in order; the call is answered to play them. */
  audioIds: number[];
  source: RouteNode;
}

export interface IvrEntryStep {
  digit: string;
  destination: Destination;
}

/** Interactive: the media worker answers, plays the greeting, collects digits and continues with resolveDestination. */
export interface IvrStep {
  kind: 'ivr';
  ivrId: number;
  greetingId: number | null;
  /** Seconds to wait for a digit after the greeting. */
  timeout: number;
  /** Invalid digits tolerated before invalid_destination. */
  retries: number;
  entries: IvrEntryStep[];
  /** Digits typed may name an extension (reached with resolveDestination({ type: 'direct', target })). */
  direct_dial: boolean;
  timeout_destination: Destination | null;
  invalid_destination: Destination | null;
  source: RouteNode;
}

export type AgentState = 'available' | 'busy' | 'offline';

/** Interactive: the caller waits (join greeting, music on hold) while agents are rung in `agents` order. */
export interface QueueStep {
  kind: 'queue';
  queueId: number;
  strategy: QueueStrategy;
  /** ringall → ring every available agent at once; the other strategies ring one agent at a time. */
  ring: 'parallel' | 'serial';
  /** Every agent, in the order the strategy rings them, with the state at plan time. */
  agents: { extension: string; state: AgentState }[];
  agent_timeout: number;
  max_wait: number;
  moh_class: string;
  join_greeting_id: number | null;
  /** LiveState.memory key of this queue (the agent who answers is remembered under it). */
  memoryKey: string;
  timeout_destination: Destination | null;
  source: RouteNode;
}

export interface VoicemailStep {
  kind: 'voicemail';
  /** An extension's digits, or "group-<ring group id>" for a ring group's shared mailbox. */
  mailbox: string;
  source: RouteNode;
}

export interface ForwardStep {
  kind: 'forward';
  /** Number sent to the trunk (after strip and prepend). */
  number: string;
  /** Number as dialled or configured. */
  dialled: string;
  /** Legacy free-text trunk of rules made before switchboards (issue 15); '' for switchboard rules. */
  trunk: string;
  /**
   * The rule's switchboards (telecom_switchboards ids), tried in this order: the Kamailio plan
   * turns each into one forward step with failover to the next on timeout / 5xx / channel limit.
   */
  switchboards?: number[];
  /** Caller number presented on the trunk (a hotline of the tenant); null = the trunk's default. */
  callerId: string | null;
  ruleId: number;
  source: RouteNode;
}

export interface RejectStep {
  kind: 'reject';
  code: RejectCode;
  reason: RejectReason;
  /** Vietnamese explanation (logs, CDR, admin screens). */
  message: string;
  source?: RouteNode;
}

/** End of the route (a destination left empty): hang up; unanswered calls get 480 / the forks' best answer. */
export interface HangupStep {
  kind: 'hangup';
  source?: RouteNode;
}

/**
 * The call is recorded (issue 16): the media worker answers the caller only when the rest of the
 * plan (which it dials as one continuation) answers, and records both parties. Always first.
 * `record: false`: the worker stands in the call only so a supervisor can listen (ADR 0042), or so it
 * can ask the caller to rate the call. `csat`: the inbound route asks its callers (issue 34, ADR 0056):
 * once the person the rest of the plan reached hangs up, the worker keeps the caller and asks.
 */
export interface BridgeStep {
  kind: 'bridge';
  record?: false;
  csat?: true;
  source?: RouteNode;
}

/**
 * A supervisor's call (issue 16, ADR 0042): the media worker `worker` (its SIP address, where
 * Kamailio sends this call instead of picking one) mixes it into the call it holds as `callId`;
 * `leg` is the agent's side there ('a': the leg that reached the worker, 'b': the leg it placed).
 */
export interface SpyStep {
  kind: 'spy';
  mode: SpyMode;
  /** The agent whose call is monitored. */
  extension: string;
  callId: string;
  leg: 'a' | 'b';
  /** "host:port" of the worker holding the call. */
  worker: string;
  source?: RouteNode;
}

/** The voicemail menu (*97 / *98, issue 16): the media worker plays a mailbox's messages; `mailbox` null: it asks which. */
export interface MailboxStep {
  kind: 'mailbox';
  mailbox: string | null;
  source?: RouteNode;
}

export type PlanStep = RingStep | PlayStep | IvrStep | QueueStep | VoicemailStep | ForwardStep | RejectStep | HangupStep | BridgeStep | SpyStep | MailboxStep;

export interface RoutingPlan {
  direction: CallDirection;
  from: string;
  to: string;
  /** The DID the call came in on (inbound). */
  did: string | null;
  steps: PlanStep[];
  /** Objects passed through, in order (CDR route taken). */
  route: RouteNode[];
  /** True when the plan ends in an IVR or queue step the media worker continues with resolveDestination. */
  interactive: boolean;
  /**
   * A continuation whose leg the worker that placed it rates once it ends (issue 34, ADR 0056: an
   * inbound route's CSAT): a queue reached in it does not ask the caller again.
   */
  csatAbove?: true;
}

export type { Destination, DestinationValue, QueueStrategy, RingStrategy };
