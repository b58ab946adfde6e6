import { digestHeader } from '@tongdai/testkit/sip-client';
import { DigestGuard } from './digest';
import { carrierSdp, chooseG711 } from './sdp';

const account = { user: '02873001234', password: 'secret' };
const answer = (challenge: string, o: Partial<{ password: string; method: string }> = {}) =>
  digestHeader({ method: o.method ?? 'INVITE', uri: 'sip:0912345678@127.0.0.1:4094', user: account.user, password: o.password ?? account.password, challenge });

describe('DigestGuard', () => {
  const guard = new DigestGuard('demo-carrier', [account]);

  it('accepts the answer to its own challenge (qop=auth), refuses a wrong password or method', () => {
    const c = guard.challenge();
    expect(guard.check('INVITE', answer(c))).toEqual({ result: 'ok', user: account.user });
    expect(guard.check('INVITE', answer(c, { password: 'nope' }))).toEqual({ result: 'wrong', user: account.user });
    expect(guard.check('BYE', answer(c))).toEqual({ result: 'wrong', user: account.user });
    expect(guard.check('INVITE', undefined)).toEqual({ result: 'missing' });
  });

  it('accepts an answer without qop (RFC 2069 clients)', () => {
    expect(guard.check('INVITE', answer(guard.challenge().replace(', qop="auth"', '')))).toEqual({ result: 'ok', user: account.user });
  });

  it('does not take a nonce it did not issue, and calls an old one stale', async () => {
    const other = new DigestGuard('demo-carrier', [account]);
    expect(guard.check('INVITE', answer(other.challenge()))).toEqual({ result: 'missing' });
    const brief = new DigestGuard('demo-carrier', [account], 1);
    const c = brief.challenge();
    await new Promise((r) => setTimeout(r, 5));
    expect(brief.check('INVITE', answer(c))).toEqual({ result: 'stale', user: account.user });
    expect(brief.challenge(true)).toMatch(/stale=true$/);
  });
});

describe('G.711 choice', () => {
  it('takes the first of PCMU/PCMA in the offer and answers with it alone', () => {
    expect(chooseG711([8, 0, 101])).toBe(8);
    expect(chooseG711([111, 0, 8])).toBe(0);
    expect(chooseG711([111, 9])).toBeNull();
    expect(carrierSdp({ address: '127.0.0.1', port: 30000, payloadTypes: [8], sessionId: 1 })).toContain('m=audio 30000 RTP/AVP 8 101\r\na=rtpmap:8 PCMA/8000\r\n');
  });
});
