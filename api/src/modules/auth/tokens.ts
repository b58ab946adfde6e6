import { createSigner, createVerifier } from 'fast-jwt';

/** Access token lifetime: short, so a stolen token is worth little. */
export const ACCESS_TTL_S = 15 * 60;
/** A token older than this is renewed on the next request (sliding session, ADR 0003). */
export const REFRESH_AFTER_S = 5 * 60;
/** No session lives longer than this, however active (sessions.created_at). */
export const ABSOLUTE_SESSION_S = 12 * 60 * 60;

export interface TokenSubject {
  sub: string;
  tid: number;
  ma_dn: string;
  sid: string;
}
export interface Claims extends TokenSubject {
  iat: number;
  exp: number;
}

export interface TokenService {
  /** Signs a token valid from `now` for ACCESS_TTL_S, capped by the absolute session end. */
  issue(subject: TokenSubject, now: number, sessionStart: number): string;
  /** Signature and shape only; the caller checks time and session state. */
  read(token: string): Claims | null;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function createTokenService(secret: string, ttl = ACCESS_TTL_S): TokenService {
  const sign = createSigner({ key: secret, algorithm: 'HS256' });
  // Expiry is checked by sessionState with an injectable clock, not by the library.
  const verify = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true });
  return {
    issue: (s, now, sessionStart) =>
      sign({ sub: s.sub, tid: s.tid, ma_dn: s.ma_dn, sid: s.sid, iat: now, exp: Math.min(now + ttl, sessionStart + ABSOLUTE_SESSION_S) }),
    read(token) {
      try {
        const c = verify(token) as Partial<Claims>;
        const ok = typeof c.sub === 'string' && Number.isInteger(c.tid) && typeof c.ma_dn === 'string' && typeof c.sid === 'string' && Number.isInteger(c.iat) && Number.isInteger(c.exp);
        return ok ? (c as Claims) : null;
      } catch {
        return null;
      }
    },
  };
}

export interface SessionRecord {
  createdAt: number;
  revoked: boolean;
}

/**
 * The sliding-session rule in one pure function: a token is usable while unexpired and its
 * session is neither revoked nor past the absolute limit; past REFRESH_AFTER_S it is renewed.
 */
export function sessionState(claims: Claims, session: SessionRecord | null, now: number): 'expired' | 'valid' | 'refresh' {
  if (!session || session.revoked) return 'expired';
  if (now >= claims.exp || now >= session.createdAt + ABSOLUTE_SESSION_S) return 'expired';
  return now - claims.iat >= REFRESH_AFTER_S ? 'refresh' : 'valid';
}
