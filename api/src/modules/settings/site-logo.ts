import { SITE_LOGO_TYPES } from '@tongdai/contracts';

type LogoType = (typeof SITE_LOGO_TYPES)[number];

/**
 * The image type from the bytes themselves: the declared Content-Type of an upload is
 * whatever the client says, and the logo is later served publicly under this type.
 */
export function sniffLogoType(buf: Buffer): LogoType | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  const head = buf.subarray(0, 2048).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if ((head.startsWith('<svg') || head.startsWith('<?xml') || head.startsWith('<!--')) && head.includes('<svg')) return 'image/svg+xml';
  return null;
}

/**
 * Served from the API origin with a sandboxing CSP: an SVG may carry script, which must never
 * run with the API's origin even if someone opens the logo address directly.
 */
export const LOGO_HEADERS = {
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
} as const;
