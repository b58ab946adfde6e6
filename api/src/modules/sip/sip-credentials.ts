import { EXTENSION_PATTERN, tenantOfSipDomain } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { digestHa1, openSipPassword } from '../subscribers/subscribers.service';

/**
 * What Kamailio checks a digest against: HA1 = MD5(user:realm:password) with the SIP domain as
 * realm, or null. Kamailio never sees the password itself (ADR 0019). The domain names the
 * tenant, so 101@demo.tongdai.local and 101@abc.tongdai.local are different subscribers with
 * different passwords. An extension owned by a locked account cannot register either.
 */
export async function sipHa1(db: Db, user: string, domain: string, tenants: { ofDomain(domain: string): Promise<{ tenantId: number } | null> }): Promise<string | null> {
  const realm = domain.toLowerCase();
  if (!tenantOfSipDomain(realm) || !EXTENSION_PATTERN.test(user)) return null;
  // Tenant lookup by domain is tenant-less (as at login), cached by the internal server's lookup
  // (one transaction less per INVITE: issue 15's bench); the password itself is read under RLS.
  const tenantId = (await tenants.ofDomain(realm))?.tenantId ?? null;
  if (!tenantId) return null;
  const sealed = await db.withTenant(tenantId, async (tx) => {
    const { rows } = await tx.query<{ sip_password: string }>(
      `select s.sip_password from subscribers s left join users u on u.id = s.user_id
       where s.extension = $1 and (u.id is null or u.status = 'active')`,
      [user],
    );
    return rows[0]?.sip_password ?? null;
  });
  const password = sealed === null ? null : openSipPassword(tenantId, sealed);
  return password === null ? null : digestHa1(user, realm, password);
}
