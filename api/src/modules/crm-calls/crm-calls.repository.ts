import { CRM_CALL_LIMITS, CRM_CALL_LIVE, type CrmCallCause, type CrmCallStatus } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

/** A click-to-call's row (crm_calls, migration 0071). */
export interface CrmCallRow {
  id: string;
  tenant_id: number;
  key_id: number;
  agent: string;
  phone: string;
  external_ref: string | null;
  status: CrmCallStatus;
  cause: CrmCallCause | null;
  attempt: number;
  agent_call_id: string | null;
  call_id: string | null;
  duration_s: number | null;
  created_at: Date;
  ringing_agent_at: Date | null;
  agent_answered_at: Date | null;
  ringing_customer_at: Date | null;
  answered_at: Date | null;
  ended_at: Date | null;
  updated_at: Date;
}

const LIVE = `(${CRM_CALL_LIVE.map((s) => `'${s}'`).join(', ')})`;

export async function insertCall(tx: Queryable, x: { tenantId: number; keyId: number; agent: string; phone: string; externalRef: string | null; at: Date }): Promise<CrmCallRow> {
  const { rows } = await tx.query<CrmCallRow>(
    `insert into crm_calls (tenant_id, key_id, agent, phone, external_ref, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6) returning *`,
    [x.tenantId, x.keyId, x.agent, x.phone, x.externalRef, x.at],
  );
  return rows[0];
}

/** The key's calls started since `since` (its per-minute limit). */
export async function keyCallsSince(tx: Queryable, keyId: number, since: Date): Promise<number> {
  const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from crm_calls where key_id = $1 and created_at >= $2', [keyId, since]);
  return rows[0].n;
}

/** A click-to-call of this agent still under way (one at a time per agent). */
export async function agentHasLiveCall(tx: Queryable, agent: string): Promise<boolean> {
  const { rows } = await tx.query(`select 1 from crm_calls where agent = $1 and status in ${LIVE} limit 1`, [agent]);
  return rows.length > 0;
}

/** One call, only through the key that asked for it (another key: nothing), with its record's id once written. */
export async function callOfKey(tx: Queryable, keyId: number, id: string): Promise<(CrmCallRow & { cdr_id: string | number | null }) | null> {
  const { rows } = await tx.query<CrmCallRow & { cdr_id: string | number | null }>(
    `select c.*, (select d.id from cdrs d where d.call_id = c.call_id and d.tenant_id = c.tenant_id
                   and d.started_at >= c.created_at - interval '1 minute' order by d.started_at limit 1) as cdr_id
       from crm_calls c where c.id = $1 and c.key_id = $2`,
    [id, keyId],
  );
  return rows[0] ?? null;
}

/** A claimed call: who to ring, what to say, in which tenant. */
export interface ClaimedCall {
  id: string;
  tenant_id: number;
  ma_dn: string;
  agent: string;
  phone: string;
  attempt: number;
}

/**
 * Claims up to `limit` queued calls, oldest first, across tenants (withSystem): `for update skip locked`,
 * so two API instances never place one call, and `ringing_agent` commits with the claim.
 */
export async function claimQueued(tx: Queryable, now: Date, limit: number): Promise<ClaimedCall[]> {
  const { rows } = await tx.query<ClaimedCall>(
    `with due as (
       select id from crm_calls where status = 'queued' and created_at >= $3 order by created_at, id limit $2 for update skip locked),
     claimed as (
       update crm_calls c set status = 'ringing_agent', ringing_agent_at = $1, updated_at = $1, attempt = c.attempt + 1
         from due where c.id = due.id
       returning c.id, c.tenant_id, c.agent, c.phone, c.attempt)
     select c.id, c.tenant_id, t.ma_dn, c.agent, c.phone, c.attempt from claimed c join tenants t on t.id = c.tenant_id`,
    [now, limit, new Date(now.getTime() - CRM_CALL_LIMITS.queuedMaxS * 1000)],
  );
  return rows;
}

/** The call's row locked for a report's update (across tenants: the worker names the tenant, withTenant). */
export async function lockCall(tx: Queryable, id: string): Promise<CrmCallRow | null> {
  const { rows } = await tx.query<CrmCallRow>('select * from crm_calls where id = $1 for update', [id]);
  return rows[0] ?? null;
}

/** Moves the call to `status` at `at`: the status's own time is set once, an end sets ended_at. */
export async function moveCall(tx: Queryable, id: string, status: CrmCallStatus, cause: CrmCallCause | null, at: Date, x: { agentCallId?: string | null; callId?: string | null; durationS?: number | null } = {}): Promise<void> {
  const stamp: Partial<Record<CrmCallStatus, string>> = {
    ringing_agent: 'ringing_agent_at', agent_answered: 'agent_answered_at', ringing_customer: 'ringing_customer_at', answered: 'answered_at', completed: 'ended_at', failed: 'ended_at',
  };
  const column = stamp[status];
  await tx.query(
    `update crm_calls set status = $2, cause = $3, updated_at = $4${column ? `, ${column} = coalesce(${column}, $4)` : ''},
            agent_call_id = coalesce($5, agent_call_id), call_id = coalesce($6, call_id), duration_s = coalesce($7, duration_s)
      where id = $1`,
    [id, status, cause, at, x.agentCallId ?? null, x.callId ?? null, x.durationS ?? null],
  );
}

/**
 * Calls no worker took or reports on any more (crm-calls.ts isLost, said in SQL): failed as 'lost'
 * (an answered one's end was never reported: completed as far as is known is not claimed, so failed too).
 * Across tenants (withSystem), skip locked: a report taking the row now wins.
 */
export async function failLost(tx: Queryable, now: Date): Promise<number> {
  const at = (s: number) => new Date(now.getTime() - s * 1000);
  const { rows } = await tx.query(
    `with lost as (
       select id from crm_calls
        where (status = 'queued' and updated_at < $2)
           or (status in ('ringing_agent', 'agent_answered', 'ringing_customer') and updated_at < $3)
           or (status = 'answered' and updated_at < $4)
        for update skip locked)
     update crm_calls c set status = 'failed', cause = 'lost', ended_at = $1, updated_at = $1 from lost where c.id = lost.id returning c.id`,
    [now, at(CRM_CALL_LIMITS.queuedMaxS), at(CRM_CALL_LIMITS.lostS), at(CRM_CALL_LIMITS.answeredMaxS)],
  );
  return rows.length;
}
