import type { Destination, SwitchboardCarrier, SwitchboardStatus, TelecomListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';

/** SQL of hotlines: pbx_numbers bound to a switchboard (migration 0031). Runs inside withTenant. */

export interface HotlineRow {
  id: number;
  /** Stored form (84…). */
  number: string;
  switchboard_id: number;
  switchboard_name: string;
  switchboard_status: SwitchboardStatus;
  switchboard_carrier: SwitchboardCarrier;
  destination: Destination | null;
  /** The id of its inbound route without a caller pattern (null when removed). */
  inbound_id: number | null;
  active: boolean;
  description: string;
  advertising_identity: boolean;
  advertising_name: string;
  /** YYYY-MM-DD. */
  advertising_registered_on: string | null;
  max_calls_per_minute: number | null;
  created_at: string;
}

const SELECT = `select n.id, n.number, n.switchboard_id, s.name as switchboard_name, s.status as switchboard_status, s.carrier as switchboard_carrier,
    i.id as inbound_id, case when i.id is null then null else json_build_object('type', i.destination_type, 'target', i.destination_target) end as destination,
    n.active, n.description, n.advertising_identity, n.advertising_name, to_char(n.advertising_registered_on, 'YYYY-MM-DD') as advertising_registered_on, n.max_calls_per_minute, n.created_at
  from pbx_numbers n join telecom_switchboards s on s.id = n.switchboard_id
  left join lateral (select id, destination_type, destination_target from pbx_inbounds where did = n.number and caller_pattern = '' limit 1) i on true`;

type Raw = Omit<HotlineRow, 'created_at'> & { created_at: unknown };
const shape = (r: Raw): HotlineRow => ({ ...r, created_at: iso(r.created_at) });

function conditions(q: Partial<TelecomListQuery>, params: unknown[], phoneSearch: string | null): string {
  const where = ['true'];
  if (q.search) {
    const typed = searchAny(['n.number', 'n.description', 's.name'], `$${params.push(likePattern(q.search))}`);
    where.push(phoneSearch ? `(${typed} or n.number like $${params.push(likePattern(phoneSearch))})` : typed);
  }
  if (q.switchboard_id) where.push(`n.switchboard_id = $${params.push(q.switchboard_id)}`);
  return where.join(' and ');
}

export async function listHotlines(tx: Queryable, q: TelecomListQuery, phoneSearch: string | null): Promise<{ rows: HotlineRow[]; total: number }> {
  const params: unknown[] = [];
  const where = conditions(q, params, phoneSearch);
  const total = await tx.query<{ n: number }>(`select count(*)::int as n from pbx_numbers n join telecom_switchboards s on s.id = n.switchboard_id where ${where}`, params);
  const { rows } = await tx.query<Raw>(`${SELECT} where ${where} order by n.number, n.id limit $${params.push(q.per_page)} offset $${params.push((q.page - 1) * q.per_page)}`, params);
  return { rows: rows.map(shape), total: total.rows[0].n };
}

export async function allHotlines(tx: Queryable): Promise<HotlineRow[]> {
  const { rows } = await tx.query<Raw>(`${SELECT} order by n.number, n.id`);
  return rows.map(shape);
}

export async function getHotline(tx: Queryable, id: number): Promise<HotlineRow | null> {
  const { rows } = await tx.query<Raw>(`${SELECT} where n.id = $1`, [id]);
  return rows[0] ? shape(rows[0]) : null;
}

/** The tenant's number (any, hotline or not) stored as `stored`. */
export async function numberByStored(tx: Queryable, stored: string): Promise<{ id: number; number: string; switchboard_id: number | null } | null> {
  const { rows } = await tx.query<{ id: number; number: string; switchboard_id: number | null }>('select id, number, switchboard_id from pbx_numbers where number = $1', [stored]);
  return rows[0] ?? null;
}

/** Decree 91's "tên định danh" of a hotline (name and day cleared when it is not registered). */
/** The campaign dialer's cap on calls started through the hotline per minute (null: none). */
export async function setDialRate(tx: Queryable, id: number, perMinute: number | null): Promise<void> {
  await tx.query('update pbx_numbers set max_calls_per_minute = $2, updated_at = now() where id = $1', [id, perMinute]);
}

export async function setIdentity(tx: Queryable, id: number, x: { advertising_identity: boolean; advertising_name: string; advertising_registered_on: string | null }): Promise<void> {
  await tx.query(
    'update pbx_numbers set advertising_identity = $2, advertising_name = $3, advertising_registered_on = $4::date, updated_at = now() where id = $1',
    [id, x.advertising_identity, x.advertising_identity ? x.advertising_name : '', x.advertising_identity ? x.advertising_registered_on : null],
  );
}

export async function bindNumber(tx: Queryable, id: number, switchboardId: number): Promise<void> {
  await tx.query('update pbx_numbers set switchboard_id = $2, updated_at = now() where id = $1', [id, switchboardId]);
}

/** Every inbound route of a DID (with and without caller pattern). */
export async function routesOfDid(tx: Queryable, did: string): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>('select id from pbx_inbounds where did = $1 order by id', [did]);
  return rows.map((r) => r.id);
}

export async function switchboardExists(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('select 1 from telecom_switchboards where id = $1', [id]);
  return rows.length > 0;
}
