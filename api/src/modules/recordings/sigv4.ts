import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3-compatible stores (issue 16, ADR 0041): the few lines an S3 PUT,
 * GET and DELETE need, with node:crypto, instead of an SDK. Header-based (Authorization), the
 * payload's SHA-256 signed (x-amz-content-sha256), S3's rule for paths (each segment encoded once).
 */

export interface SigV4Credentials {
  accessKey: string;
  secretKey: string;
  region: string;
  /** 's3' for a bucket. */
  service: string;
}

export interface SigV4Request {
  method: string;
  url: URL;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (names in any case). */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (EMPTY_SHA256 for none). */
  payloadHash: string;
  now: Date;
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
export const EMPTY_SHA256 = sha256Hex('');

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX (upper case). */
export function uriEncode(s: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** 20130524T000000Z */
export const amzDate = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** The canonical query: each name and value encoded, sorted by name then value. */
function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The path, each segment encoded once (a segment the URL already encoded is decoded first). */
function canonicalPath(url: URL): string {
  const path = url.pathname || '/';
  return path.split('/').map((seg) => uriEncode(safeDecode(seg), false)).join('/');
}
function safeDecode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/** The signing key of a day: HMAC chain over date, region, service, "aws4_request". */
export function signingKey(secretKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), region), service), 'aws4_request');
}

/**
 * The headers to send (the request's own, plus host, x-amz-date, x-amz-content-sha256 and
 * authorization) and the pieces of the signature, for tests. The path is signed as S3 reads it:
 * each segment encoded once, whether or not the URL had encoded it (`new URL` keeps `$` as is).
 */
export function signV4(req: SigV4Request, cred: SigV4Credentials) {
  const date = amzDate(req.now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v.trim().replace(/\s+/g, ' ');
  headers.host = req.url.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = req.payloadHash;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    req.method.toUpperCase(),
    canonicalPath(req.url),
    canonicalQuery(req.url),
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${cred.region}/${cred.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(cred.secretKey, day, cred.region, cred.service)).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${cred.accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return { headers, canonicalRequest, stringToSign, signature };
}
