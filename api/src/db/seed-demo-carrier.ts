import { storedForm } from '@tongdai/contracts';
import { sealSwitchboardPassword } from '../modules/subscribers/subscribers.service';
import type { Db } from './db';
import { DEMO } from './seed-data';
import { DEMO_PBX } from './seed-pbx';

/**
 * The demo tenant's connection to the demo carrier (demo-carrier/, ADR 0037): what `npm start`
 * seeds so a newcomer's first call to a mobile number reaches something. Names and numbers here;
 * the address and credentials come from the stack that started the simulator (DEMO_CARRIER_*).
 */
export const DEMO_CARRIER = {
  switchboard: 'Nhà mạng demo',
  description: 'Nhà mạng giả lập chạy cùng npm start (demo-carrier): không phải nhà mạng thật, không gọi ra mạng điện thoại',
  hotline: '02873001234',
  /** Mobiles (03/05/07/08/09 + 8 digits) and landlines (02 + 9 digits) leave through it, the hotline as caller ID. */
  outbound: [
    { name: 'Di động qua nhà mạng demo', pattern: '0[35789]XXXXXXXX' },
    { name: 'Cố định qua nhà mạng demo', pattern: '02XXXXXXXXX' },
  ],
} as const;

export interface DemoCarrierLink {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Channels the switchboard (1–2000, migration 0031) and at least the tenant allow; unset: the defaults stay (the bench raises them). */
  maxChannels?: number;
  /** false: an IP-authenticated trunk (the bench's sipp carrier answers INVITEs only). Default true. */
  register?: boolean;
}

/** DEMO_CARRIER=host:port, DEMO_CARRIER_USER, DEMO_CARRIER_PASSWORD [, DEMO_CARRIER_MAX_CHANNELS, DEMO_CARRIER_REGISTER=0]; null when unset. */
export function demoCarrierFromEnv(env: NodeJS.ProcessEnv): DemoCarrierLink | null {
  const m = /^([0-9.]+):(\d{1,5})$/.exec(env.DEMO_CARRIER ?? '');
  if (!m || !env.DEMO_CARRIER_USER || !env.DEMO_CARRIER_PASSWORD) return null;
  const channels = Number(env.DEMO_CARRIER_MAX_CHANNELS);
  return {
    host: m[1],
    port: Number(m[2]),
    user: env.DEMO_CARRIER_USER,
    password: env.DEMO_CARRIER_PASSWORD,
    ...(channels > 0 ? { maxChannels: channels } : {}),
    ...(env.DEMO_CARRIER_REGISTER === '0' ? { register: false } : {}),
  };
}

/**
 * Idempotent (every start): the switchboard "Nhà mạng demo" (registering, UDP) follows the
 * simulator's address and credentials; the hotline, its inbound route to the sales ring group and
 * the two outbound rules are added when missing, and left as the admin changed them otherwise.
 * Returns the switchboard's id, or null when there is no demo tenant.
 */
export async function seedDemoCarrier(db: Db, link: DemoCarrierLink): Promise<number | null> {
  return db.withSystem(async (tx) => {
    const tenant = (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [DEMO.tenants.demo])).rows[0];
    if (!tenant) return null;
    const tid = tenant.id;
    const sealed = sealSwitchboardPassword(tid, link.password);
    const { rows } = await tx.query<{ id: number }>(
      `insert into telecom_switchboards (tenant_id, name, carrier, host, port, transport, auth_user, auth_password_sealed, register, description)
       values ($1, $2, 'other', $3, $4, 'udp', $5, $6, $8, $7)
       on conflict (tenant_id, lower(name)) do update set host = excluded.host, port = excluded.port, auth_user = excluded.auth_user,
         auth_password_sealed = excluded.auth_password_sealed, register = excluded.register, updated_at = now()
       returning id`,
      [tid, DEMO_CARRIER.switchboard, link.host, link.port, link.user, sealed, DEMO_CARRIER.description, link.register ?? true],
    );
    const sb = rows[0].id;
    if (link.maxChannels) {
      await tx.query('update telecom_switchboards set max_channels = $2 where id = $1', [sb, link.maxChannels]);
      await tx.query('update tenants set max_channels = greatest(max_channels, $2) where id = $1', [tid, link.maxChannels]);
    }
    const hotline = storedForm(DEMO_CARRIER.hotline);
    await tx.query('insert into pbx_numbers (tenant_id, number, description, switchboard_id) values ($1, $2, $3, $4) on conflict do nothing', [tid, hotline, 'Hotline demo (nhà mạng demo)', sb]);
    await tx.query('update pbx_numbers set switchboard_id = $3 where tenant_id = $1 and number = $2 and switchboard_id is null', [tid, hotline, sb]);
    // Calls to the hotline ring the sales team, like the demo's first number.
    await tx.query(
      `insert into pbx_inbounds (tenant_id, did, destination_type, destination_target, description)
       select $1, $2, 'group', id::text, $3 from pbx_ring_groups where tenant_id = $1 and name = $4
       on conflict do nothing`,
      [tid, hotline, 'Khách gọi hotline demo gặp phòng kinh doanh', DEMO_PBX.demo.ringGroup.name],
    );
    for (const rule of DEMO_CARRIER.outbound) {
      await tx.query(
        `insert into pbx_outbound_rules (tenant_id, name, pattern, trunk, caller_id, priority, switchboard_ids, caller_id_mode, description)
         values ($1, $2, $3, '', $4, 50, array[$5::int], 'fixed', $6)
         on conflict (tenant_id, lower(name)) do nothing`,
        [tid, rule.name, rule.pattern, hotline, sb, 'Gọi ra qua nhà mạng demo, hiển thị hotline demo'],
      );
    }
    return sb;
  });
}
