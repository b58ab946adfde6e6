import { afterCall, callableNumber, decideCheck, drawCode, limitRefusal, verificationStatus, type VerificationState } from './voice-otp';
import { parseKey, formatKey, hashSecret, secretMatches } from './otp-keys';
import { nextDeliveryAt, signWebhook } from './otp-webhooks';

/** Voice-OTP's decisions (ADR 0052) on dates built in the test: no clock, no database. */
const at = (s: string) => new Date(`2026-11-25T${s}Z`);
const state = (x: Partial<VerificationState> = {}): VerificationState & { code: string } => ({
  call_status: 'completed', checks: 0, approved_at: null, expires_at: at('10:05:00'), code: '123456', ...x,
});

describe('verificationStatus', () => {
  it('approved wins over everything; then expired by time or by spent checks; else the call', () => {
    expect(verificationStatus(state({ approved_at: at('10:01:00') }), at('11:00:00'))).toBe('approved');
    expect(verificationStatus(state(), at('10:05:00'))).toBe('expired');
    expect(verificationStatus(state({ checks: 5 }), at('10:01:00'))).toBe('expired');
    expect(verificationStatus(state({ call_status: 'no_answer' }), at('10:04:59'))).toBe('no_answer');
  });
});

describe('decideCheck', () => {
  const now = at('10:02:00');
  it('the right code approves and counts; a wrong one counts as wrong', () => {
    expect(decideCheck(state(), '123456', now)).toEqual({ result: 'approved', counted: true, approve: true });
    expect(decideCheck(state(), '123457', now)).toEqual({ result: 'wrong_code', counted: true, approve: false });
    expect(decideCheck(state(), '12345', now)).toEqual({ result: 'wrong_code', counted: true, approve: false });
  });
  it('after five checks, at or past the expiry, or once approved, nothing is compared or counted', () => {
    expect(decideCheck(state({ checks: 5 }), '123456', now)).toEqual({ result: 'too_many_attempts', counted: false, approve: false });
    expect(decideCheck(state(), '123456', at('10:05:00'))).toEqual({ result: 'expired', counted: false, approve: false });
    expect(decideCheck(state({ approved_at: now }), 'x', now)).toEqual({ result: 'approved', counted: false, approve: false });
  });
});

describe('callableNumber', () => {
  it('reads 0…, 84…, +84… as 84…; refuses abroad, 1800/1900 and what is no number', () => {
    expect(callableNumber('0912 345 678')).toEqual({ number: '84912345678' });
    expect(callableNumber('84912345678')).toEqual({ number: '84912345678' });
    expect(callableNumber('+84 28 7300 5201')).toEqual({ number: '842873005201' });
    expect(callableNumber('+14155550100')).toEqual({ refusal: 'international' });
    expect(callableNumber('0033612345678')).toEqual({ refusal: 'international' });
    expect(callableNumber('19001234')).toEqual({ refusal: 'not_callable' });
    expect(callableNumber('101')).toEqual({ refusal: 'invalid_number' });
  });
});

describe('limitRefusal', () => {
  const ok = { numberRecent: 2, keyToday: 9, tenantToday: 9_999, keyDailyLimit: 10 };
  it('the number first, then the key, then the tenant', () => {
    expect(limitRefusal(ok)).toBeNull();
    expect(limitRefusal({ ...ok, numberRecent: 3, keyToday: 10, tenantToday: 10_000 })).toBe('number_limit');
    expect(limitRefusal({ ...ok, keyToday: 10, tenantToday: 10_000 })).toBe('key_day_limit');
    expect(limitRefusal({ ...ok, tenantToday: 10_000 })).toBe('tenant_day_limit');
  });
});

describe('codes and keys', () => {
  it('draws digit by digit from the given source', () => {
    const digits = [4, 0, 9, 1];
    expect(drawCode(4, () => digits.shift()!)).toBe('4091');
  });
  it('parses only what it formats; the secret matches only its own hash', () => {
    const secret = 'A'.repeat(43);
    expect(parseKey(formatKey('demo', 12, secret))).toEqual({ maDn: 'demo', id: 12, secret });
    for (const bad of ['', 'tdo.demo.12', `tdo.DEMO.12.${secret}`, `tdo.demo.0.${secret}`, `xx.demo.12.${secret}`, `tdo.demo.12.${secret}A`, 'eyJhbGciOi.x.y']) expect(parseKey(bad)).toBeNull();
    expect(secretMatches(secret, hashSecret(secret))).toBe(true);
    expect(secretMatches(`${secret.slice(1)}B`, hashSecret(secret))).toBe(false);
  });
});

describe('afterCall (retry policy)', () => {
  const s = { call_status: 'calling' as const, call_attempts: 1, expires_at: at('10:05:00') };
  const now = at('10:00:20');
  it('no answer on the first call: once more after the key’s delay (30 s by default)', () => {
    expect(afterCall(s, 'no_answer', now, 30)).toEqual({ call_status: 'no_answer', next_call_at: at('10:00:50') });
  });
  it('no second retry, none when the key says 0, none past the expiry', () => {
    expect(afterCall({ ...s, call_attempts: 2 }, 'no_answer', now, 30)).toEqual({ call_status: 'no_answer', next_call_at: null });
    expect(afterCall(s, 'no_answer', now, 0)).toEqual({ call_status: 'no_answer', next_call_at: null });
    expect(afterCall(s, 'no_answer', at('10:04:40'), 30)).toEqual({ call_status: 'no_answer', next_call_at: null });
  });
  it('busy, failed, answered and completed are final for the call', () => {
    for (const o of ['busy', 'failed', 'answered', 'completed'] as const) expect(afterCall(s, o, now, 30)).toEqual({ call_status: o, next_call_at: null });
  });
  it('an answered call ends completed or failed; a report sent again or out of its turn changes nothing', () => {
    const answered = { ...s, call_status: 'answered' as const };
    expect(afterCall(answered, 'completed', now, 30)).toEqual({ call_status: 'completed', next_call_at: null });
    expect(afterCall(answered, 'failed', now, 30)).toEqual({ call_status: 'failed', next_call_at: null });
    for (const o of ['answered', 'no_answer', 'busy'] as const) expect(afterCall(answered, o, now, 30)).toBeNull();
    for (const done of ['completed', 'no_answer', 'busy', 'failed'] as const) {
      for (const o of ['answered', 'completed', 'no_answer', 'busy', 'failed'] as const) expect(afterCall({ ...s, call_status: done }, o, now, 30)).toBeNull();
    }
  });
  it('a report about an earlier attempt than the call under way changes nothing', () => {
    const second = { ...s, call_attempts: 2 };
    expect(afterCall(second, 'no_answer', now, 30, 1)).toBeNull();
    expect(afterCall(second, 'no_answer', now, 30, 2)).toEqual({ call_status: 'no_answer', next_call_at: null });
  });
});

describe('webhooks: signature and retry schedule', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 of the secret (the header an application checks)', () => {
    // Worked out with: printf '1764150000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(signWebhook('whsec_test', 1764150000, '{"a":1}')).toBe('t=1764150000,v1=6e5e5edac91d00003fcf62cb28e693fb70ed90edab5335c443767352e0da91fd');
    expect(signWebhook('whsec_test', 1764150000, '{"a":2}')).not.toBe(signWebhook('whsec_test', 1764150000, '{"a":1}'));
    expect(signWebhook('whsec_other', 1764150000, '{"a":1}')).not.toBe(signWebhook('whsec_test', 1764150000, '{"a":1}'));
  });
  it('5 s, 30 s, 2 min, 10 min, 30 min, 1 h after each failed try; given up after the seventh', () => {
    const t0 = at('10:00:00');
    expect([1, 2, 3, 4, 5, 6].map((n) => (nextDeliveryAt(n, t0)!.getTime() - t0.getTime()) / 1000)).toEqual([5, 30, 120, 600, 1800, 3600]);
    expect(nextDeliveryAt(7, t0)).toBeNull();
  });
});
