import { createHmac, timingSafeEqual } from 'node:crypto';
import { MA_DN_PATTERN } from '@tongdai/contracts';

/**
 * The telecom API's per-tenant key (SPEC §7 GET /etelecom/GetShopKey): `<ma_dn>.<mac>`, where the
 * mac is an HMAC of the tenant code under a key derived from the deployment secret. Nothing is
 * stored: the key is recomputed to issue it and to check it (docs/adr/0010-telecom-keys.md).
 */
export interface ShopKeys {
  issue(maDn: string): string;
  /** The tenant code a presented key belongs to, or null for anything we did not issue. */
  tenantOf(key: string): string | null;
}

/** `derive` is AppDeps.deriveKey: the one place that names this key's purpose. */
export function createShopKeys(derive: (purpose: string) => Buffer): ShopKeys {
  const secret = derive('telecom-shop-key');
  const mac = (maDn: string) => createHmac('sha256', secret).update(`shop-key:v1:${maDn}`).digest('base64url');
  return {
    issue: (maDn) => `${maDn}.${mac(maDn)}`,
    tenantOf(key) {
      const dot = key.indexOf('.');
      const maDn = key.slice(0, dot);
      if (dot < 0 || !MA_DN_PATTERN.test(maDn)) return null;
      const given = Buffer.from(key.slice(dot + 1));
      const expected = Buffer.from(mac(maDn));
      return given.length === expected.length && timingSafeEqual(given, expected) ? maDn : null;
    },
  };
}
