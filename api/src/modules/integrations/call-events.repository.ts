import type { CallDelivery, CallWebhookAgent, CallWebhookCustomer } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { likePattern } from '../../db/sql';

/** The keys of these tenants that hear call events. Explicit tenant filters: the journal writes across tenants (withSystem). */
export async function listeningKeys(tx: Queryable, tenantIds: number[]): Promise<{ id: number; tenant_id: number }[]> {
  const { rows } = await tx.query<{ id: number; tenant_id: number }>(
    `select id, tenant_id from otp_api_keys
      where tenant_id = any($1::int[]) and 'calls.events' = any(scopes) and webhook_url is not null and revoked_at is null order by id`,
    [tenantIds],
  );
  return rows;
}

/** The tenant's newest customer stored under one of these forms of a number. */
export async function customerOf(tx: Queryable, tenantId: number, variants: string[]): Promise<CallWebhookCustomer | null> {
  if (!variants.length) return null;
  const { rows } = await tx.query<CallWebhookCustomer>(
    'select id, name, code from customers where tenant_id = $1 and phone = any($2::text[]) order by updated_at desc, id desc limit 1',
    [tenantId, variants],
  );
  return rows[0] ?? null;
}

/** The extension and the user who holds it, if any. */
export async function agentOf(tx: Queryable, tenantId: number, extension: string): Promise<CallWebhookAgent> {
  const { rows } = await tx.query<{ id: number; name: string }>(
    `select u.id, coalesce(nullif(u.full_name, ''), u.username) as name
       from subscribers s join users u on u.tenant_id = s.tenant_id and u.id = s.user_id
      where s.tenant_id = $1 and s.extension = $2 limit 1`,
    [tenantId, extension],
  );
  return { extension, user_id: rows[0]?.id ?? null, name: rows[0]?.name ?? null };
}

export interface NewDelivery {
  tenant_id: number;
  key_id: number;
  call_id: string;
  event: string;
  body: string;
  at: string;
}

/**
 * Inserts the deliveries in the order given (a call's ringing, answered, ended get ascending ids, the
 * order the sender keeps), due at once; one already written (key, call, event) is kept as it is.
 */
export async function insertDeliveries(tx: Queryable, rows: NewDelivery[]): Promise<number> {
  if (!rows.length) return 0;
  const res = await tx.query(
    `insert into call_webhook_deliveries (tenant_id, key_id, call_id, event, body, next_at)
     select tenant_id, key_id, call_id, event, body, now()
       from rows from (json_to_recordset($1::json) as (tenant_id int, key_id int, call_id text, event text, body text)) with ordinality
         as r(tenant_id, key_id, call_id, event, body, ord)
      order by ord
     on conflict (key_id, call_id, event) do nothing returning id`,
    [JSON.stringify(rows)],
  );
  return res.rows.length;
}

/** The deliveries of these keys (the tenant's CRM keys, or one), newest first, a page at a time (the log on /webhook-deliveries). */
export async function listDeliveries(tx: Queryable, keyIds: number[], search: string, page: number, perPage: number): Promise<{ rows: CallDelivery[]; total: number }> {
  const { rows } = await tx.query<CallDelivery & { total: string }>(
    `select d.id::int as id, d.key_id, k.name as key_name, d.created_at, d.event, d.call_id, d.attempts, d.last_status, d.last_error, d.next_at, d.delivered_at,
            case when d.delivered_at is not null then 'delivered' when d.gave_up_at is not null then 'given_up' else 'retrying' end as status,
            count(*) over () as total
       from call_webhook_deliveries d join otp_api_keys k on k.tenant_id = d.tenant_id and k.id = d.key_id
      where d.key_id = any($1::int[]) and ($4 = '' or d.call_id like $4) order by d.id desc limit $2 offset $3`,
    [keyIds, perPage, (page - 1) * perPage, search ? likePattern(search) : ''],
  );
  return { rows: rows.map(({ total: _t, ...r }) => r), total: Number(rows[0]?.total ?? 0) };
}
