/**
 * Carrier switchboards, hotlines and outbound rules written straight into a tenant's tables (issue
 * 15), for tests of the call path that must not depend on the telecom screens' API. `tx` is a
 * transaction inside the tenant (the API's db.withTenant); the password arrives already sealed
 * (the API's sealSwitchboardPassword): the kit never knows the key.
 */
export interface Tx {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface SwitchboardFixture {
  name: string;
  host?: string;
  port: number;
  transport?: 'udp' | 'tcp';
  /** How the caller ID goes to the carrier (default national). */
  callerIdFormat?: 'national' | 'international' | 'e164';
  authUser?: string;
  sealedPassword?: string;
  register?: boolean;
  registerInterval?: number;
  maxChannels?: number;
  enabled?: boolean;
}

export async function insertSwitchboard(tx: Tx, tenantId: number, s: SwitchboardFixture): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into telecom_switchboards (tenant_id, name, host, port, transport, auth_user, auth_password_sealed, register, register_interval, max_channels, enabled, status, caller_id_format)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $8 then 'pending' else 'ip' end, $12) returning id`,
    [tenantId, s.name, s.host ?? '127.0.0.1', s.port, s.transport ?? 'udp', s.authUser ?? '', s.sealedPassword ?? '', s.register ?? false, s.registerInterval ?? 60, s.maxChannels ?? 30, s.enabled ?? true, s.callerIdFormat ?? 'national'],
  );
  return rows[0].id;
}

/** A number of the tenant bound to a switchboard (a hotline), its calls going to extension `extension`. */
export async function insertHotline(tx: Tx, tenantId: number, number: string, switchboardId: number, extension: string): Promise<void> {
  await tx.query('insert into pbx_numbers (tenant_id, number, switchboard_id) values ($1, $2, $3)', [tenantId, number, switchboardId]);
  await tx.query(`insert into pbx_inbounds (tenant_id, did, destination_type, destination_target) values ($1, $2, 'direct', $3)`, [tenantId, number, extension]);
}

/** An outbound rule: numbers matching `pattern` leave through `switchboardIds` in order, presenting `callerId`. */
export async function insertOutboundRule(tx: Tx, tenantId: number, r: { name: string; pattern: string; switchboardIds: number[]; callerId?: string; priority?: number }): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into pbx_outbound_rules (tenant_id, name, pattern, trunk, caller_id, priority, switchboard_ids) values ($1, $2, $3, '', $4, $5, $6) returning id`,
    [tenantId, r.name, r.pattern, r.callerId ?? '', r.priority ?? 10, r.switchboardIds],
  );
  return rows[0].id;
}
