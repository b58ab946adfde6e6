import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A SIP account the carrier knows (what a tenant types into its switchboard). */
export interface Account {
  user: string;
  password: string;
}

export type DigestCheck = { result: 'ok'; user: string } | { result: 'missing' | 'stale' | 'wrong'; user?: string };

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The fields of a Digest credentials header (Authorization / Proxy-Authorization). */
export function digestFields(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^\s*Digest\s+/i, '').matchAll(/(\w+)\s*=\s*(?:"([^"]*)"|([^,\s]+))/g)) out[m[1].toLowerCase()] = m[2] ?? m[3];
  return out;
}

/**
 * Digest authentication as a carrier's server does it (RFC 2617 / RFC 3261 §22, MD5, qop=auth
 * or none): nonces are stateless (issue time + HMAC under a key made at start), valid for
 * `nonceTtlMs`; an expired one is answered `stale` so the client retries without asking anyone.
 */
export class DigestGuard {
  private readonly key = randomBytes(32);
  private readonly accounts: Map<string, string>;

  constructor(
    readonly realm: string,
    accounts: Account[],
    private readonly nonceTtlMs = 5 * 60_000,
  ) {
    this.accounts = new Map(accounts.map((a) => [a.user, a.password]));
  }

  private sign(issued: string): string {
    return createHmac('sha256', this.key).update(issued).digest('base64url').slice(0, 22);
  }

  /** A WWW-Authenticate / Proxy-Authenticate value with a fresh nonce. */
  challenge(stale = false): string {
    const issued = Date.now().toString(36);
    return `Digest realm="${this.realm}", nonce="${issued}.${this.sign(issued)}", qop="auth", algorithm=MD5${stale ? ', stale=true' : ''}`;
  }

  /** Checks the credentials a request carries (`header` undefined: none sent). */
  check(method: string, header: string | undefined): DigestCheck {
    if (!header || !/^\s*Digest\s/i.test(header)) return { result: 'missing' };
    const f = digestFields(header);
    if (f.realm !== this.realm || !f.nonce || !f.uri || !f.response || !f.username) return { result: 'missing' };
    const [issued, mac] = f.nonce.split('.');
    if (!issued || !mac || !safeEqual(mac, this.sign(issued))) return { result: 'missing' };
    const password = this.accounts.get(f.username);
    if (password === undefined) return { result: 'wrong', user: f.username };
    const ha1 = md5(`${f.username}:${this.realm}:${password}`);
    const ha2 = md5(`${method}:${f.uri}`);
    const expected = f.qop ? md5(`${ha1}:${f.nonce}:${f.nc ?? ''}:${f.cnonce ?? ''}:${f.qop}:${ha2}`) : md5(`${ha1}:${f.nonce}:${ha2}`);
    if (!safeEqual(expected, f.response.toLowerCase())) return { result: 'wrong', user: f.username };
    // Right password on an old nonce: ask again with stale=true (the client needs no new password).
    if (Date.now() - parseInt(issued, 36) > this.nonceTtlMs) return { result: 'stale', user: f.username };
    return { result: 'ok', user: f.username };
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
