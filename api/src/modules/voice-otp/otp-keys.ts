import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MA_DN_PATTERN } from '@tongdai/contracts';

/**
 * A voice-OTP API key: `tdo.<ma_dn>.<key id>.<32 random bytes, base64url>`. The tenant code and id
 * say which row to read (no search over every tenant's hashes), the random part is the secret; only
 * its SHA-256 is stored (ADR 0052: a 256-bit secret needs no slow hash, and a check stays ~µs).
 */
const PREFIX = 'tdo';

export interface ParsedKey {
  maDn: string;
  id: number;
  secret: string;
}

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export const formatKey = (maDn: string, id: number, secret: string): string => `${PREFIX}.${maDn}.${id}.${secret}`;

/** What is shown of a key after its creation: enough to tell two keys apart. */
export const keyPrefix = (maDn: string, id: number, secret: string): string => `${PREFIX}.${maDn}.${id}.${secret.slice(0, 4)}…`;

export function parseKey(key: string): ParsedKey | null {
  const parts = key.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const [, maDn, id, secret] = parts;
  if (!MA_DN_PATTERN.test(maDn) || !/^[1-9]\d{0,8}$/.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  return { maDn, id: Number(id), secret };
}

/** The presented secret against the stored hash, in constant time. */
export function secretMatches(secret: string, stored: Buffer): boolean {
  const given = hashSecret(secret);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
