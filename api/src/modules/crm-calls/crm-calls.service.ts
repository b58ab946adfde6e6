import {
  CRM_CALL_MSG, crmAgentDisplay, nationalForm, type CrmCall, type CrmCallCause, type CrmCallOutcome, type CrmCallRefusal, type CrmCallStartInput, type PbxConfig,
} from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { placedCallsDue } from '../../db/due-signal';
import { iso } from '../../db/sql';
import { AppError } from '../../http/errors';
import { loadPbxConfig } from '../pbx/pbx.service';
import { planPlacedCall, type LiveState, type RoutingPlan } from '../routing';
import { agentRefusal, afterReport, customerNumber, overMinuteLimit, routeRefusal } from './crm-calls';
import * as repo from './crm-calls.repository';

/** The key a request opened (voice-otp's authenticate): its tenant, its id, its scopes. */
export interface CrmCaller {
  tenantId: number;
  keyId: number;
}

/** What a start needs of the call plane: who is registered and who is in a call now, per tenant (the live state every instance reads). */
export interface CrmLive {
  registered(tenantId: number): Promise<ReadonlySet<string>>;
  busy(tenantId: number): Promise<ReadonlySet<string>>;
}

export type { ClaimedCall } from './crm-calls.repository';

const refused = (code: 'CRM_CALL_REFUSED' | 'CRM_AGENT_UNAVAILABLE' | 'CRM_RATE_LIMITED', field: 'agent' | 'to', rule: CrmCallRefusal) =>
  new AppError(code, [{ field, rule, message: CRM_CALL_MSG[rule] }]);

/** Outbound planning needs no queue figures: the engine reads only who is registered and busy for a call out. */
const outboundState = (registered: ReadonlySet<string>, busy: ReadonlySet<string>): LiveState => ({
  registered, busy, lastAgent: () => null, queueStats: new Map(), memory: new Map(), campaignCaller: null,
});

/**
 * The customer's leg as the agent's own call out (ADR 0066): planned as the routing engine plans a number
 * the agent dials from their extension — the outbound rules' patterns, the blocked-outgoing list, the rule's
 * caller ID and switchboards — but as a leg the worker places (no recording bridge in front). A refusal is
 * the plan's reject step.
 */
export function customerPlan(config: PbxConfig, agent: string, phone: string, state: LiveState, at: Date): RoutingPlan {
  return planPlacedCall(config, { from: agent, to: nationalForm(phone), direction: 'outbound', fromExtension: agent, at }, state);
}

const toCall = (r: repo.CrmCallRow & { cdr_id?: string | number | null }): CrmCall => ({
  id: r.id,
  status: r.status,
  cause: r.cause,
  agent: r.agent,
  to: r.phone,
  external_ref: r.external_ref,
  created_at: iso(r.created_at),
  ringing_agent_at: r.ringing_agent_at && iso(r.ringing_agent_at),
  agent_answered_at: r.agent_answered_at && iso(r.agent_answered_at),
  ringing_customer_at: r.ringing_customer_at && iso(r.ringing_customer_at),
  answered_at: r.answered_at && iso(r.answered_at),
  ended_at: r.ended_at && iso(r.ended_at),
  duration_s: r.duration_s,
  cdr_id: r.cdr_id == null ? null : Number(r.cdr_id),
  call_id: r.call_id,
});

/**
 * Click-to-call (issue 39, ADR 0066): a CRM's key asks for a call (a crm_calls row, the job), a media
 * worker's ask claims it, the worker's reports move it on.
 */
export function createCrmCallsService(db: Db, clock: () => Date = () => new Date()) {
  return {
    /**
     * A call asked for: the agent's extension must be the tenant's (422), have a phone registered and not be
     * in a call (409); the number must be callable and the agent's outbound rules must let it out (422); the
     * key may start CRM_CALL_LIMITS.perKeyMinute a minute (429). Queued, and a waiting worker woken.
     */
    async start(c: CrmCaller, x: CrmCallStartInput, live: CrmLive): Promise<CrmCall> {
      const now = clock();
      const num = customerNumber(x.to);
      if ('refusal' in num) throw refused('CRM_CALL_REFUSED', 'to', num.refusal);
      const [registered, busy] = await Promise.all([live.registered(c.tenantId), live.busy(c.tenantId)]);
      const row = await db.withTenant(c.tenantId, async (tx) => {
        // One start at a time per key: its minute's count and the agent's call under way are read under the lock.
        await tx.query('select pg_advisory_xact_lock($1, $2)', [0x63746331, c.keyId]);
        if (overMinuteLimit(await repo.keyCallsSince(tx, c.keyId, new Date(now.getTime() - 60_000)))) throw refused('CRM_RATE_LIMITED', 'agent', 'key_minute_limit');
        const config = await loadPbxConfig(tx, c.tenantId, '');
        const known = config.extensions.some((e) => e.extension === x.agent);
        const agentBusy = busy.has(x.agent) || (known && (await repo.agentHasLiveCall(tx, x.agent)));
        const refusal = agentRefusal({ known, registered: registered.has(x.agent), busy: agentBusy });
        if (refusal) throw refused(refusal === 'unknown_agent' ? 'CRM_CALL_REFUSED' : 'CRM_AGENT_UNAVAILABLE', 'agent', refusal);
        const first = customerPlan(config, x.agent, num.number, outboundState(registered, busy), now).steps[0];
        if (first?.kind !== 'forward') throw refused('CRM_CALL_REFUSED', 'to', routeRefusal(first?.kind === 'reject' ? first.reason : 'no_route'));
        return repo.insertCall(tx, { tenantId: c.tenantId, keyId: c.keyId, agent: x.agent, phone: num.number, externalRef: x.external_ref || null, at: now });
      });
      placedCallsDue.wake();
      return toCall(row);
    },

    /** A call, only through the key that asked for it: another key of the tenant, or of another, gets 404. */
    async get(c: CrmCaller, id: string): Promise<CrmCall> {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new AppError('NOT_FOUND');
      const row = await db.withTenant(c.tenantId, (tx) => repo.callOfKey(tx, c.keyId, id));
      if (!row) throw new AppError('NOT_FOUND');
      return toCall(row);
    },

    /** Queued calls claimed for placing (ringing_agent), across tenants. */
    claimCalls(limit: number): Promise<repo.ClaimedCall[]> {
      return db.withSystem((tx) => repo.claimQueued(tx, clock(), limit));
    },

    /** A claimed call that cannot be placed after all (the agent gone or busy, the number refused now). */
    async fail(tenantId: number, id: string, cause: CrmCallCause): Promise<void> {
      await db.withTenant(tenantId, (tx) => repo.moveCall(tx, id, 'failed', cause, clock()));
    },

    /** The customer's leg handed to the worker: ringing the customer. */
    async customerRinging(tenantId: number, id: string): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        const row = await repo.lockCall(tx, id);
        if (row?.status === 'agent_answered') await repo.moveCall(tx, id, 'ringing_customer', null, clock());
      });
    },

    /**
     * A worker's report, taken once (afterReport): the call's row locked, moved, its Call-IDs kept. Answers
     * whether it applied, and the call (for agent_answered: who and what to call next).
     */
    async report(tenantId: number, id: string, outcome: CrmCallOutcome, x: { callId?: string | null; durationS?: number | null }): Promise<{ applied: boolean; call: repo.CrmCallRow | null }> {
      return db.withTenant(tenantId, async (tx) => {
        const row = await repo.lockCall(tx, id);
        const move = row && afterReport(row.status, outcome);
        if (!row || !move) return { applied: false, call: row };
        const legs = outcome === 'agent_answered' ? { agentCallId: x.callId ?? null } : outcome === 'answered' ? { callId: x.callId ?? null } : {};
        await repo.moveCall(tx, id, move.status, move.cause, clock(), { ...legs, durationS: x.durationS == null ? null : Math.round(x.durationS) });
        return { applied: true, call: { ...row, status: move.status, cause: move.cause } };
      });
    },

    /** Calls no worker took or reports on any more: failed 'lost' (crm-calls.ts isLost). */
    failLost(): Promise<number> {
      return db.withSystem((tx) => repo.failLost(tx, clock()));
    },

    /** Leg A's From display on the agent's phone. */
    display: (phone: string) => crmAgentDisplay(nationalForm(phone)),
  };
}
export type CrmCallsService = ReturnType<typeof createCrmCallsService>;
