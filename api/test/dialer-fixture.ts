import { insertHotline, insertOutboundRule, insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import type { Db } from '../src/db/db';

/**
 * The dialer suites' telecom: a switchboard at the carrier's loopback port (sipp as the carrier and the
 * contacts behind it), the campaign's hotline on it (inbound to 101), mobile numbers out through it with
 * the hotline's caller ID, and the admin — the campaigns' agent — on extension 101 alone.
 * Resolves to [the admin's user id, the hotline's id].
 */
export function dialerTelecom(db: Db, tenantId: number, carrierPort: number, hotline: string): Promise<[number, number]> {
  return db.withTenant(tenantId, async (tx) => {
    const sb = await insertSwitchboard(tx, tenantId, { name: 'Nhà mạng chiến dịch', port: carrierPort });
    await insertHotline(tx, tenantId, hotline, sb, '101');
    await insertOutboundRule(tx, tenantId, { name: 'Di động', pattern: '09XXXXXXXX', switchboardIds: [sb], callerId: hotline, priority: 1 });
    const user = (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id;
    await tx.query("update subscribers set user_id = null where user_id = $1 and extension <> '101'", [user]);
    await tx.query("update subscribers set user_id = $1 where extension = '101'", [user]);
    return [user, (await tx.query<{ id: number }>('select id from pbx_numbers where number = $1', [hotline])).rows[0].id] as [number, number];
  });
}
