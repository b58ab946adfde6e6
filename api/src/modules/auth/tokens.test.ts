import { ABSOLUTE_SESSION_S, ACCESS_TTL_S, createTokenService, REFRESH_AFTER_S, sessionState } from './tokens';

const tokens = createTokenService('unit-test-secret-unit-test-secret');
const subject = { sub: '7', tid: 3, ma_dn: 'demo', sid: '00000000-0000-0000-0000-000000000001' };
const T0 = 1_800_000_000;

describe('token service', () => {
  it('round-trips the claims and expires after 15 minutes', () => {
    const claims = tokens.read(tokens.issue(subject, T0, T0));
    expect(claims).toMatchObject({ ...subject, iat: T0, exp: T0 + ACCESS_TTL_S });
  });
  it('never outlives the absolute session limit', () => {
    const start = T0 - ABSOLUTE_SESSION_S + 60;
    expect(tokens.read(tokens.issue(subject, T0, start))?.exp).toBe(T0 + 60);
  });
  it('refuses a token signed with another secret or tampered with', () => {
    const other = createTokenService('another-secret-another-secret-xx').issue(subject, T0, T0);
    expect(tokens.read(other)).toBeNull();
    const [h, , s] = tokens.issue(subject, T0, T0).split('.');
    const forged = Buffer.from(JSON.stringify({ ...subject, tid: 4, iat: T0, exp: T0 + 900 })).toString('base64url');
    expect(tokens.read(`${h}.${forged}.${s}`)).toBeNull();
    expect(tokens.read('not-a-token')).toBeNull();
  });
});

describe('sessionState (sliding session)', () => {
  const claims = { ...subject, iat: T0, exp: T0 + ACCESS_TTL_S };
  const live = { createdAt: T0, revoked: false };
  it('is valid while young', () => {
    expect(sessionState(claims, live, T0 + REFRESH_AFTER_S - 1)).toBe('valid');
  });
  it('asks for a fresh token once older than 5 minutes', () => {
    expect(sessionState(claims, live, T0 + REFRESH_AFTER_S)).toBe('refresh');
  });
  it('expires with the token, a revoked or missing session, or the absolute limit', () => {
    expect(sessionState(claims, live, T0 + ACCESS_TTL_S)).toBe('expired');
    expect(sessionState(claims, { ...live, revoked: true }, T0 + 1)).toBe('expired');
    expect(sessionState(claims, null, T0 + 1)).toBe('expired');
    const old = { createdAt: T0 - ABSOLUTE_SESSION_S, revoked: false };
    expect(sessionState(claims, old, T0 + 1)).toBe('expired');
  });
});
