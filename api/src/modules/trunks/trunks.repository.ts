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
  /** The tenant's channel limit over all its switchboards. */
  tenant_max_channels: number;
}

/** Every switchboard of every tenant (tenant-less: the SIP plane serves all tenants, ADR 0036). */
export async function allSwitchboards(db: Db): Promise<SwitchboardRow[]> {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.query<SwitchboardRow>(
      `select s.id, s.tenant_id, s.name, s.host, s.port, s.transport, s.caller_id_format, s.auth_user, s.auth_password_sealed, s.register,
              s.register_interval, s.max_channels, s.enabled, t.max_channels as tenant_max_channels
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
        where s.id = u.id and s.enabled and s.register and (s.status <> u.status or s.status_reason <> u.reason)
       returning s.id`,
      [updates.map((u) => u.id), updates.map((u) => u.status), updates.map((u) => u.reason)],
    );
    return rows.length;
  });
}
