import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db';

/**
 * SIP passwords at rest (ADR 0019): AES-256-GCM with a key that lives outside the database
 * (SIP_PASSWORD_KEY: 32 bytes as 64 hex digits or base64; `npm start` keeps a generated one in
 * the data dir). Stored form `v1.<iv>.<ciphertext+tag>` (base64url); the tenant id is the
 * additional data, so a sealed password copied to another tenant's row does not open.
 * Only three places open one: GET /sip-account (the softphone's own), the HA1 for Kamailio and
 * nothing else; POST /subscribers and reset-password answer the new password before sealing.
 */
const PREFIX = 'v1.';
let cachedKey: { spec: string; key: Buffer } | null = null;

/** The key named by SIP_PASSWORD_KEY; throws when it is missing or not 32 bytes. */
export function sipPasswordKey(spec = process.env.SIP_PASSWORD_KEY): Buffer {
  if (!spec) throw new Error('SIP_PASSWORD_KEY is not set (32 bytes, hex or base64): SIP passwords are stored encrypted');
  if (cachedKey?.spec === spec) return cachedKey.key;
  const key = /^[0-9a-fA-F]{64}$/.test(spec) ? Buffer.from(spec, 'hex') : Buffer.from(spec, 'base64');
  if (key.length !== 32) throw new Error('SIP_PASSWORD_KEY must be 32 bytes (64 hex digits or base64)');
  cachedKey = { spec, key };
  return key;
}

export const newSipPasswordKey = (): string => randomBytes(32).toString('hex');

/** What a sealed secret is for: a value sealed for one purpose does not open for another. */
export type SecretPurpose = 'subscriber' | 'switchboard' | 'google' | 'otp-webhook';
const aad = (tenantId: number, purpose: SecretPurpose = 'subscriber') => Buffer.from(`tongdai:${purpose}:${tenantId}`);

/** A carrier switchboard's digest password at rest (issue 15): same box, its own purpose. */
export const sealSwitchboardPassword = (tenantId: number, password: string): string => sealSipPassword(tenantId, password, sipPasswordKey(), 'switchboard');
export const openSwitchboardPassword = (tenantId: number, sealed: string): string | null => openSipPassword(tenantId, sealed, sipPasswordKey(), 'switchboard');

/** A tenant's Google service-account key file (issue 33): same box, its own purpose. */
export const sealGoogleKey = (tenantId: number, json: string): string => sealSipPassword(tenantId, json, sipPasswordKey(), 'google');
export const openGoogleKey = (tenantId: number, sealed: string): string | null => openSipPassword(tenantId, sealed, sipPasswordKey(), 'google');

/** A voice-OTP key's webhook signing secret (issue 35): same box, its own purpose. */
export const sealWebhookSecret = (tenantId: number, secret: string): string => sealSipPassword(tenantId, secret, sipPasswordKey(), 'otp-webhook');
export const openWebhookSecret = (tenantId: number, sealed: string): string | null => openSipPassword(tenantId, sealed, sipPasswordKey(), 'otp-webhook');

export function sealSipPassword(tenantId: number, password: string, key = sipPasswordKey(), purpose: SecretPurpose = 'subscriber'): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(tenantId, purpose));
  const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The password, or null when the value is not ours (wrong key, tampered, another tenant's). */
export function openSipPassword(tenantId: number, sealed: string, key = sipPasswordKey(), purpose: SecretPurpose = 'subscriber'): string | null {
  const [version, ivText, bodyText] = sealed.split('.');
  if (`${version}.` !== PREFIX || !ivText || !bodyText) return null;
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== 12 || body.length < 17) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad(tenantId, purpose));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Digest HA1 = MD5(user:realm:password), what Kamailio checks a digest with (RFC 2617). */
export const digestHa1 = (user: string, realm: string, password: string): string =>
  createHash('md5').update(`${user}:${realm}:${password}`).digest('hex');

/**
 * Seals every row still holding a plaintext password (databases from before migration 0016).
 * Runs inside the migration's transaction, as app_system (RLS would hide every tenant's rows).
 */
export async function sealPlaintextSipPasswords(tx: Queryable): Promise<number> {
  await tx.query('set local role app_system');
  const { rows } = await tx.query<{ id: number; tenant_id: number; sip_password: string }>(
    `select id, tenant_id, sip_password from subscribers where sip_password not like '${PREFIX}%'`,
  );
  for (const r of rows) {
    await tx.query('update subscribers set sip_password = $2 where id = $1', [r.id, sealSipPassword(r.tenant_id, r.sip_password)]);
  }
  await tx.query('reset role');
  return rows.length;
}
