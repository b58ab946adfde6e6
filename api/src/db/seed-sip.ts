import type { Queryable } from './db';
import { sealSipPassword } from '../modules/subscribers/sip-password-box';
import { DEMO, DEMO_SIP } from './seed-data';

/**
 * Extensions of the demo tenants: same number 101 in both, so tests can prove isolation. Their
 * mailboxes are off (a new extension's is on, migration 0046): the demo's calls that ring out, are
 * refused busy or reach an offline phone end as such, and its tests turn a mailbox on where they
 * test voicemail, as a tenant does on /pbx/subscribers.
 */
export async function seedSubscribers(tx: Queryable, tenantId: number, maDn: string): Promise<void> {
  const entries = maDn === DEMO.tenants.demo ? [[DEMO.admin, DEMO_SIP.demo.admin], [DEMO.staff, DEMO_SIP.demo.staff]] as const
    : maDn === DEMO.tenants.abc ? [[DEMO.admin, DEMO_SIP.abc.admin]] as const : [];
  for (const [user, sip] of entries) {
    await tx.query(
      `insert into subscribers (tenant_id, extension, display_name, sip_password, user_id, voicemail_enabled)
       select $1, $2, $3, $4, id, false from users where tenant_id = $1 and username = $5`,
      [tenantId, sip.extension, sip.display_name, sealSipPassword(tenantId, sip.password), user.username],
    );
  }
}
