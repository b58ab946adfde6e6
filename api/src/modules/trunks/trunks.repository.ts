import type { CallerIdFormat } from '@tongdai/contracts';
import type { Db } from '../../db/db';

/** A switchboard as the call path reads it (every tenant: Kamailio serves them all). */
export interface SwitchboardRow {
  id: number;
  tenant_id: number;
  name: string;
  host: string;
  port: number;
  transport: 'udp' | 'tcp';
  caller_id_format: CallerIdFormat;
  auth_user: string;
  auth_password_sealed: string;
  register: boolean;
  register_interval: number;
  max_channels: number;
  enabled: boolean;
  /** The live status (the directory moves it to and from `blocked`, ADR 0043). */
  status: string;
  /** The tenant's channel limit over all its switchboards. */
  tenant_max_channels: number;
}

/** Every switchboard of every tenant (tenant-less: the SIP plane serves all tenants, ADR 0036). */
export async function allSwitchboards(db: Db): Promise<SwitchboardRow[]> {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query<SwitchboardRow>(
      `select s.id, s.tenant_id, s.name, s.host, s.port, s.transport, s.caller_id_format, s.auth_user, s.auth_password_sealed, s.register,
              s.register_interval, s.max_channels, s.enabled, s.status, t.max_channels as tenant_max_channels
         from telecom_switchboards s join tenants t on t.id = s.tenant_id
        order by s.id`,
    );
    return rows;
  });
}

/** Outbound rules' ordered switchboards (rule id → switchboard ids), every tenant's rules that have some. */
export async function ruleSwitchboards(db: Db): Promise<Map<number, number[]>> {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query<{ id: number; switchboard_ids: number[] }>("select id, switchboard_ids from pbx_outbound_rules where switchboard_ids <> '{}'");
    return new Map(rows.map((r) => [r.id, r.switchboard_ids]));
  });
}

export interface StatusUpdate {
  id: number;
  status: 'registered' | 'failed';
  reason: string;
}

/** Writes what Kamailio saw of the registrations; a row changes (and its status_at) only when its status or reason does. */
export async function writeStatuses(db: Db, updates: StatusUpdate[]): Promise<number> {
  if (!updates.length) return 0;
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query(
      `update telecom_switchboards s set status = u.status, status_reason = u.reason, status_at = now()
         from unnest($1::int[], $2::text[], $3::text[]) as u(id, status, reason)
        where s.id = u.id and s.enabled and s.register and s.status <> 'blocked' and (s.status <> u.status or s.status_reason <> u.reason)
       returning s.id`,
      [updates.map((u) => u.id), updates.map((u) => u.status), updates.map((u) => u.reason)],
    );
    return rows.length;
  });
}

type Audited = Pick<SwitchboardRow, 'id' | 'tenant_id' | 'host' | 'port'>;

/**
 * A switchboard whose host the policy refuses at use (ADR 0043): status `blocked` with the reason,
 * and one audit line, only when it was not blocked already (several API instances write it once).
 */
export async function blockSwitchboard(db: Db, r: Audited, why: { reason: string; address: string; rule: string }): Promise<boolean> {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query(
      `update telecom_switchboards set status = 'blocked', status_reason = $2, status_at = now() where id = $1 and enabled and status <> 'blocked' and host = $3 and port = $4 returning id`,
      [r.id, why.reason, r.host, r.port],
    );
    if (!rows.length) return false;
    await tx.query(
      `insert into telecom_switchboard_audit (tenant_id, switchboard_id, action, host, port, address, rule) values ($1, $2, 'blocked', $3, $4, $5, $6)`,
      [r.tenant_id, r.id, r.host, r.port, why.address, why.rule],
    );
    return true;
  });
}

/** Its host answers with an allowed address again: the status restarts as a save would (and an audit line). */
export async function unblockSwitchboard(db: Db, r: Audited): Promise<boolean> {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query(
      `update telecom_switchboards set status = case when not enabled then 'disabled' when register then 'pending' else 'ip' end, status_reason = '', status_at = null
        where id = $1 and status = 'blocked' and host = $2 and port = $3 returning id`,
      [r.id, r.host, r.port],
    );
    if (!rows.length) return false;
    await tx.query(`insert into telecom_switchboard_audit (tenant_id, switchboard_id, action, host, port) values ($1, $2, 'unblocked', $3, $4)`, [r.tenant_id, r.id, r.host, r.port]);
    return true;
  });
}
