import { createHmac, timingSafeEqual } from 'node:crypto';
import { MA_DN_PATTERN } from '@tongdai/contracts';

/**
 * The telecom API's per-tenant key (SPEC §7 GET /etelecom/GetShopKey): `<ma_dn>.<mac>`, where the
 * mac is an HMAC of the tenant code and the current rotation period under a key derived from the
 * deployment secret. Nothing is stored: the key is recomputed to issue it and to check it. A key
 * is accepted in its period and the next, so it lives between one and two periods
 * (docs/adr/0010-telecom-keys.md, amended by 0018).
 */
export interface ShopKeys {
  issue(maDn: string): string;
  /** The tenant code a presented key belongs to, or null for anything we did not issue or that expired. */
  tenantOf(key: string): string | null;
}

/**
 * One rotation period. Twelve hours is the absolute session limit (tokens.ts), so a key fetched
 * at any moment of a session outlives it and the softphone never needs to fetch it again.
 */
export const SHOP_KEY_PERIOD_MS = 12 * 60 * 60 * 1000;

/** `derive` is AppDeps.deriveKey: the one place that names this key's purpose. */
export function createShopKeys(derive: (purpose: string) => Buffer, clock: () => number = Date.now, periodMs = SHOP_KEY_PERIOD_MS): ShopKeys {
  const secret = derive('telecom-shop-key');
  const period = () => Math.floor(clock() / periodMs);
  const mac = (maDn: string, p: number) => createHmac('sha256', secret).update(`shop-key:v2:${maDn}:${p}`).digest('base64url');
  const same = (given: Buffer, expected: string) => {
    const e = Buffer.from(expected);
    return given.length === e.length && timingSafeEqual(given, e);
  };
  return {
    issue: (maDn) => `${maDn}.${mac(maDn, period())}`,
    tenantOf(key) {
      const dot = key.indexOf('.');
      const maDn = key.slice(0, dot);
      if (dot < 0 || !MA_DN_PATTERN.test(maDn)) return null;
      const given = Buffer.from(key.slice(dot + 1));
      const now = period();
      return same(given, mac(maDn, now)) || same(given, mac(maDn, now - 1)) ? maDn : null;
    },
  };
}
