import type { Switchboard, SwitchboardInput, SwitchboardRoute, TelecomListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';

/** SQL of telecom_switchboards (migration 0031). Runs inside withTenant: RLS supplies the tenant. */

/** A row without the live figures (channels in use come from the call path, not the table). */
export type SwitchboardRow = Omit<Switchboard, 'channels_in_use'>;

// Never the sealed password: a row says whether there is one.
const SELECT = `select s.id, s.name, s.carrier, s.host, s.port, s.transport, s.caller_id_format, s.auth_user, s.auth_password_sealed <> '' as has_password,
    s.register, s.register_interval, s.max_channels, s.codecs, s.enabled, s.description, s.status, s.status_reason, s.status_at,
    (select count(*)::int from pbx_numbers n where n.switchboard_id = s.id) as hotlines, s.created_at, s.updated_at
  from telecom_switchboards s`;

type Raw = Omit<SwitchboardRow, 'created_at' | 'updated_at' | 'status_at'> & { created_at: unknown; updated_at: unknown; status_at: unknown };
const shape = (r: Raw): SwitchboardRow => ({
  ...r,
  status_at: r.status_at === null ? null : iso(r.status_at),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listSwitchboards(tx: Queryable, q: TelecomListQuery): Promise<{ rows: SwitchboardRow[]; total: number }> {
  const params: unknown[] = [];
  const where = q.search ? `where ${searchAny(['s.name', 's.host', 's.auth_user', 's.description'], `$${params.push(likePattern(q.search))}`)}` : '';
  const total = await tx.query<{ n: number }>(`select count(*)::int as n from telecom_switchboards s ${where}`, params);
  const { rows } = await tx.query<Raw>(`${SELECT} ${where} order by lower(s.name), s.id limit $${params.push(q.per_page)} offset $${params.push((q.page - 1) * q.per_page)}`, params);
  return { rows: rows.map(shape), total: total.rows[0].n };
}

export async function allSwitchboards(tx: Queryable): Promise<SwitchboardRow[]> {
  const { rows } = await tx.query<Raw>(`${SELECT} order by lower(s.name), s.id`);
  return rows.map(shape);
}

export async function getSwitchboard(tx: Queryable, id: number): Promise<SwitchboardRow | null> {
  const { rows } = await tx.query<Raw>(`${SELECT} where s.id = $1`, [id]);
  return rows[0] ? shape(rows[0]) : null;
}

/** The columns a write sets; `sealed` undefined keeps the stored password (an edit left empty). */
function columns(x: SwitchboardInput, status: string, sealed: string | undefined): Record<string, unknown> {
  return {
    name: x.name, carrier: x.carrier, host: x.host, port: x.port, transport: x.transport, caller_id_format: x.caller_id_format, auth_user: x.auth_user,
    register: x.register, register_interval: x.register_interval, max_channels: x.max_channels, codecs: x.codecs,
    enabled: x.enabled, description: x.description, status,
    ...(sealed !== undefined && { auth_password_sealed: sealed }),
  };
}

export async function insertSwitchboard(tx: Queryable, tenantId: number, x: SwitchboardInput, status: string, sealed: string): Promise<number> {
  const cols = columns(x, status, sealed);
  const names = Object.keys(cols);
  const { rows } = await tx.query<{ id: number }>(
    `insert into telecom_switchboards (tenant_id, ${names.join(', ')}) values ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')}) returning id`,
    [tenantId, ...names.map((n) => cols[n])],
  );
  return rows[0].id;
}

/** Updates a switchboard; `status` null keeps the live status (and its reason), else restarts it. */
export async function updateSwitchboard(tx: Queryable, id: number, x: SwitchboardInput, status: string | null, sealed: string | undefined): Promise<boolean> {
  const cols = columns(x, status ?? '', sealed);
  delete cols.status;
  const names = Object.keys(cols);
  const params: unknown[] = [id, ...names.map((n) => cols[n])];
  const sets = names.map((n, i) => `${n} = $${i + 2}`).join(', ');
  const restart = `$${params.push(status)}::text`;
  const { rows } = await tx.query(
    `update telecom_switchboards set ${sets}, updated_at = now(), status = coalesce(${restart}, status),
       status_reason = case when ${restart} is null then status_reason else '' end,
       status_at = case when ${restart} is null then status_at else null end
     where id = $1 returning id`,
    params,
  );
  return rows.length > 0;
}

export async function deleteSwitchboard(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('delete from telecom_switchboards where id = $1 returning id', [id]);
  return rows.length > 0;
}

/** What uses a switchboard: its hotlines and the outbound rules that list it. */
export async function switchboardUses(tx: Queryable, id: number): Promise<{ hotlines: number; rules: number }> {
  const { rows } = await tx.query<{ hotlines: number; rules: number }>(
    `select (select count(*)::int from pbx_numbers where switchboard_id = $1) as hotlines,
            (select count(*)::int from pbx_outbound_rules where $1 = any(switchboard_ids)) as rules`,
    [id],
  );
  return rows[0];
}

/** The tenant's switchboards as the call path sees them, with their active hotlines (stored form). */
export async function switchboardRoutes(tx: Queryable): Promise<SwitchboardRoute[]> {
  const { rows } = await tx.query<SwitchboardRoute>(
    `select s.id, s.name, s.carrier, s.host, s.port, s.transport, s.max_channels, s.enabled, s.register,
            coalesce((select array_agg(n.number order by n.id) from pbx_numbers n where n.switchboard_id = s.id and n.active), '{}') as hotlines
       from telecom_switchboards s order by s.id`,
  );
  return rows;
}

/** The tenant's limit of concurrent calls over all its switchboards. */
export async function tenantMaxChannels(tx: Queryable, tenantId: number): Promise<number> {
  const { rows } = await tx.query<{ max_channels: number }>('select max_channels from tenants where id = $1', [tenantId]);
  return rows[0]?.max_channels ?? 0;
}
