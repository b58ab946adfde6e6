import type { Queryable } from '../../db/db';

/**
 * The two delivery tables (ADR 0065): voice-OTP's status changes (migration 0056) and the CRM's call
 * events (migration 0070). Same columns for the sender; each keeps its own foreign keys and indexes.
 */
export type DeliveryTable = 'otp_webhook_deliveries' | 'call_webhook_deliveries';

/**
 * Only call events go in order: a call's next event for a key waits while an earlier one of the same
 * call and key is neither delivered nor given up (a CRM must not hear "ended" before "ringing").
 */
const IN_ORDER: Record<DeliveryTable, string> = {
  otp_webhook_deliveries: '',
  call_webhook_deliveries: `and not exists (
    select 1 from call_webhook_deliveries e
     where e.key_id = d.key_id and e.call_id = d.call_id and e.id < d.id and e.delivered_at is null and e.gave_up_at is null)`,
};

/** A webhook delivery claimed for a try, with where it goes and what signs it (read at the try: the key's current URL). */
export interface DueDelivery {
  id: string;
  tenant_id: number;
  body: string;
  attempts: number;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  revoked: boolean;
}

/**
 * Claims up to `limit` deliveries due at `now`, across tenants (withSystem): `for update skip locked`,
 * one more attempt counted, and due again `leaseS` later should this sender die mid-try.
 */
export async function claimDeliveries(tx: Queryable, table: DeliveryTable, now: Date, limit: number, leaseS = 60): Promise<DueDelivery[]> {
  const { rows } = await tx.query<DueDelivery>(
    `with due as (
       select d.id from ${table} d where d.next_at <= $1 ${IN_ORDER[table]} order by d.next_at, d.id limit $2 for update skip locked),
     claimed as (
       update ${table} d set attempts = d.attempts + 1, next_at = $1 + make_interval(secs => $3)
         from due where d.id = due.id
       returning d.id, d.tenant_id, d.key_id, d.body, d.attempts)
     select c.id, c.tenant_id, c.body, c.attempts, k.webhook_url, k.webhook_secret_sealed, k.revoked_at is not null as revoked
       from claimed c join otp_api_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
      order by c.id`,
    [now, limit, leaseS],
  );
  return rows;
}

/** A try's result: delivered, due again at `nextAt`, or given up (nextAt null and not delivered). */
export async function finishDelivery(tx: Queryable, table: DeliveryTable, id: string, r: { delivered: boolean; status: number; error: string; nextAt: Date | null; at: Date }): Promise<void> {
  await tx.query(
    `update ${table} set last_status = $2, last_error = nullif($3, ''), next_at = $4,
            delivered_at = case when $5 then $6::timestamptz end, gave_up_at = case when not $5 and $4::timestamptz is null then $6::timestamptz end
      where id = $1`,
    [id, r.status, r.error.slice(0, 500), r.delivered ? null : r.nextAt, r.delivered, r.at],
  );
}

/** Deletes up to `limit` deliveries done with (delivered or given up) created before `before`; answers how many. */
export async function pruneDeliveries(tx: Queryable, table: DeliveryTable, before: Date, limit: number): Promise<number> {
  const { rows } = await tx.query(
    `delete from ${table} where id in (select id from ${table} where next_at is null and created_at < $1 order by created_at limit $2) returning id`,
    [before, limit],
  );
  return rows.length;
}
