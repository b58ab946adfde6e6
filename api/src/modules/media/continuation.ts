import { randomBytes } from 'node:crypto';
import { closeRedis, orLocal, type RedisStatus } from '../../db/redis';
import { DEFAULT_VOICEMAIL_MAX_SECONDS, type MediaChoice as Choice, type MediaStep, type PbxConfig } from '@tongdai/contracts';
import { queueAsksCsat, resolveDestination, routeAsksCsat, type CallInput, type LiveState, type PlanStep, type RoutingPlan } from '../routing';

export type { MediaChoice as Choice, MediaStep } from '@tongdai/contracts';

export const MEDIA_KINDS = new Set<PlanStep['kind']>(['play', 'ivr', 'queue', 'voicemail', 'bridge', 'spy', 'mailbox']);

export function mediaStepOf(step: PlanStep, config: PbxConfig): MediaStep | null {
  switch (step.kind) {
    case 'play':
      return { kind: 'play', audioIds: step.audioIds };
    case 'ivr':
      return { kind: 'ivr', ivrId: step.ivrId, greetingId: step.greetingId, timeout: step.timeout, retries: step.retries, entries: step.entries.map((e) => ({ digit: e.digit })), direct_dial: step.direct_dial };
    case 'queue': {
      // Music on hold: the files of the queue's class (the "default" class when it has none).
      const cls = step.moh_class || 'default';
      const moh = config.audio.filter((a) => a.kind === 'moh' && (a.moh_class || 'default') === cls).map((a) => a.id);
      return { kind: 'queue', queueId: step.queueId, join_greeting_id: step.join_greeting_id, moh_audio_ids: moh, max_wait: step.max_wait, agent_timeout: step.agent_timeout };
    }
    case 'voicemail': {
      // An extension's mailbox has its own greeting and longest message; a group's box the defaults.
      const owner = config.extensions.find((e) => e.extension === step.mailbox);
      return { kind: 'voicemail', mailbox: step.mailbox, greeting_id: owner?.voicemail_greeting_id ?? null, max_seconds: owner?.voicemail_max_seconds ?? DEFAULT_VOICEMAIL_MAX_SECONDS };
    }
    case 'bridge':
      return { kind: 'bridge' };
    case 'spy':
      return { kind: 'spy', mode: step.mode, call_id: step.callId, leg: step.leg };
    case 'mailbox':
      return { kind: 'mailbox', mailbox: step.mailbox };
    default:
      return null;
  }
}

/** A plan that does something (not empty, not just "hang up"). */
const actionable = (plan: RoutingPlan): boolean => plan.steps.length > 0 && plan.steps[0].kind !== 'hangup';

/**
 * Where the caller goes after `choice` at `step` of `plan`: a plan, `invalid` (digits that lead
 * nowhere: the IVR asks again), or null (nothing more: hang up).
 */
export function continuationPlan(config: PbxConfig, plan: RoutingPlan, stepIndex: number, choice: Choice, call: CallInput, state: LiveState): RoutingPlan | 'invalid' | null {
  const step = plan.steps[stepIndex];
  if (!step) return null;
  const from = (dest: Parameters<typeof resolveDestination>[1]) => {
    if (!dest) return null;
    const next = resolveDestination(config, dest, call, state);
    return actionable(next) ? next : null;
  };
  switch (choice.kind) {
    case 'next': {
      const rest = { ...plan, steps: plan.steps.slice(stepIndex + 1), route: [] };
      return actionable(rest) ? rest : null;
    }
    case 'digits': {
      if (step.kind !== 'ivr') return null;
      const entry = step.entries.find((e) => e.digit === choice.digits);
      if (entry) return from(entry.destination) ?? null;
      if (step.direct_dial && config.extensions.some((e) => e.extension === choice.digits)) return from({ type: 'direct', target: choice.digits });
      return 'invalid';
    }
    case 'timeout':
      return step.kind === 'ivr' ? from(step.timeout_destination) : null;
    case 'invalid':
      return step.kind === 'ivr' ? from(step.invalid_destination) : null;
    case 'queue_timeout':
      return step.kind === 'queue' ? from(step.timeout_destination) : null;
    case 'queue_agents': {
      if (step.kind !== 'queue') return null;
      // The queue again, with who is free now, in the strategy's order.
      const fresh = resolveDestination(config, { type: 'queue', target: String(step.queueId) }, call, state).steps[0];
      if (fresh?.kind !== 'queue') return null;
      const free = fresh.agents.filter((a) => a.state === 'available');
      if (!free.length) return null;
      const targets = free.map((a) => ({ extension: a.extension, timeout: fresh.agent_timeout }));
      return {
        ...plan,
        steps: [{ kind: 'ring', mode: fresh.ring, targets, timeout: fresh.ring === 'parallel' ? fresh.agent_timeout : fresh.agent_timeout * targets.length, source: fresh.source }],
        route: [],
        interactive: false,
      };
    }
  }
}

/**
 * Post-call CSAT (issue 34, ADR 0056): whether the worker asks the caller to rate the call once the leg
 * it places to `next` (after `choice` at `stepIndex` of `plan`) has been answered and ends
 * (MediaContinue.csat). One worker per call asks:
 * - a queue's agents: the queue's own setting, unless a worker before it rates the leg the queue is in
 *   (its plan's `csatAbove`: a route's bridge that rang an extension first, then fell to the queue);
 * - the rest of a plan after the bridge an inbound route with CSAT put first (its `csat`);
 * - an IVR's or announcement's way on, on a call that came in through such a route, when it rings an
 *   extension or goes out through a carrier (a queue it reaches keeps its own setting).
 */
export function csatLeg(config: PbxConfig, plan: RoutingPlan, stepIndex: number, choice: Choice, next: RoutingPlan): boolean {
  const step = plan.steps[stepIndex];
  if (!step) return false;
  if (choice.kind === 'queue_agents') return queueAsksCsat(config, step) && !plan.csatAbove;
  if (step.kind === 'bridge') return choice.kind === 'next' && step.csat === true;
  if (step.kind !== 'ivr' && step.kind !== 'play') return false;
  const first = next.steps[0];
  return (first?.kind === 'ring' || first?.kind === 'forward') && !plan.csatAbove && routeAsksCsat(config, plan);
}

/**
 * A score reported for a session this API process did not answer (another instance did, or it
 * restarted): whether the session's step may have been told to ask (see csatLeg).
 */
export function sessionMayRate(config: PbxConfig, plan: RoutingPlan, stepIndex: number): boolean {
  const step = plan.steps[stepIndex];
  if (!step) return false;
  if (step.kind === 'queue') return queueAsksCsat(config, step) && !plan.csatAbove;
  if (step.kind === 'bridge') return step.csat === true;
  return (step.kind === 'ivr' || step.kind === 'play') && !plan.csatAbove && routeAsksCsat(config, plan);
}

export interface Continuation {
  /** The call this leg moves on (its record is the parent's); absent: a call of its own (a dialer's call to a contact). */
  parentCallId?: string;
  tenantId: number;
  maDn: string;
  plan: RoutingPlan;
  /**
   * The extension whose own call this leg is (a click-to-call's customer leg, ADR 0066): recorded as placed by
   * that extension (the record's caller, its busy state), as if its phone had dialled.
   */
  callerExtension?: string;
  expiresAt: number;
}

/**
 * One-use tokens the worker dials (sip:<token>@proxy); they lapse after a minute unused. Kamailio asks
 * for a token's plan from the instance holding the call plane (ADR 0059), which may not be the one that
 * made it: a caller moved on by an IVR at the moment of a hand-over. Hence Redis when several instances
 * serve (redisContinuations); this process's memory otherwise.
 */
export interface ContinuationStore {
  add(c: Omit<Continuation, 'expiresAt'>, ttlMs?: number): Promise<string>;
  take(token: string): Promise<Continuation | null>;
  close?(): Promise<void>;
}

const newToken = () => `c${randomBytes(12).toString('hex')}`;
const TOKEN_TTL_MS = 60_000;

/** The tokens in this process's memory. */
export class Continuations implements ContinuationStore {
  private readonly byToken = new Map<string, Continuation>();

  async add(c: Omit<Continuation, 'expiresAt'>, ttlMs = TOKEN_TTL_MS): Promise<string> {
    return this.put(newToken(), c, ttlMs);
  }

  /** Keeps `c` under `token` (the Redis store's copy while Redis is away). */
  put(token: string, c: Omit<Continuation, 'expiresAt'>, ttlMs: number): string {
    const now = Date.now();
    if (this.byToken.size > 1000) for (const [k, v] of this.byToken) if (v.expiresAt < now) this.byToken.delete(k);
    this.byToken.set(token, { ...c, expiresAt: now + ttlMs });
    return token;
  }

  async take(token: string): Promise<Continuation | null> {
    return this.takeHere(token);
  }

  /** The token's continuation if this process holds it, gone from here once taken. */
  takeHere(token: string): Continuation | null {
    const c = this.byToken.get(token);
    this.byToken.delete(token);
    return c && c.expiresAt >= Date.now() ? c : null;
  }
}

/**
 * Tokens every API instance reads (REDIS_URL): SET with the token's lifetime, GETDEL to take it (one
 * use, whichever instance asks). While Redis does not answer (issue 41) a token is kept in this
 * process's memory and found there: the call goes on unless the plan moves to another instance meanwhile.
 */
export async function redisContinuations(url: string, status: RedisStatus, onError: (e: unknown) => void = () => undefined, prefix = 'tongdai:continuation:'): Promise<ContinuationStore> {
  const client = await status.connect(url, 'media continuations', onError);
  const local = new Continuations();
  const away = () => !status.up;
  return {
    async add(c, ttlMs = TOKEN_TTL_MS) {
      const token = newToken();
      const kept = { ...c, expiresAt: Date.now() + ttlMs };
      return orLocal(async () => {
        await client.set(prefix + token, JSON.stringify(kept), { PX: Math.max(1, ttlMs) });
        return token;
      }, () => local.put(token, c, ttlMs), away, onError);
    },
    async take(token) {
      const here = local.takeHere(token);
      if (here) return here;
      const raw = await orLocal(() => client.getDel(prefix + token), () => null, away, onError);
      if (!raw) return null;
      const c = JSON.parse(raw) as Continuation;
      return c.expiresAt >= Date.now() ? c : null;
    },
    close: () => closeRedis(client),
  };
}
