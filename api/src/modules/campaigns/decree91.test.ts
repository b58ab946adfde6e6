import { DECREE91_MESSAGES } from '@tongdai/contracts';
import { decree91, type Consent, type Decree91Facts, type DncEntry } from './decree91';

/**
 * Decree 91's rules as a pure function (ADR 0049). Every date is built in UTC (…Z) and the window
 * is Vietnam time (UTC+7), so the machine's zone must not matter: run this file under `TZ=UTC` and
 * under `TZ=America/New_York` (Jest's sandbox copies process.env, so the zone cannot be switched
 * inside the file); both runs must pass unchanged.
 */
const at = (iso: string) => new Date(iso);
/** An advertising call with a registered hotline, nothing on file: only the clock decides. */
const facts = (over: Partial<Decree91Facts> = {}): Decree91Facts => ({
  kind: 'advertising', at: at('2026-06-10T03:00:00Z'), dnc: [], consent: null, lastAdvertisingCallAt: null, advertisingIdentity: true, ...over,
});
const verdict = (over: Partial<Decree91Facts>) => {
  const d = decree91(facts(over));
  return d.allowed ? 'allowed' : d.reason;
};
const consent = (over: Partial<Consent>): Consent => ({ agreed_at: at('2026-05-01T00:00:00Z'), lifts_window: false, lifts_cap: false, overrides_dnc: false, ...over });
const dnc = (source: DncEntry['source'], createdAt = '2026-04-01T00:00:00Z'): DncEntry => ({ source, created_at: at(createdAt) });

describe('Decree 91 (machine zone: ' + (process.env.TZ ?? 'unset') + ')', () => {
  it('advertising only 08:00:00–16:59:59 Vietnam time', () => {
    const cases = {
      '2026-06-10T00:59:59Z': 'outside_window', // 07:59:59
      '2026-06-10T01:00:00Z': 'allowed', // 08:00:00
      '2026-06-10T09:59:59Z': 'allowed', // 16:59:59
      '2026-06-10T09:59:59.999Z': 'allowed',
      '2026-06-10T10:00:00Z': 'outside_window', // 17:00:00
      '2026-06-10T16:59:59Z': 'outside_window', // 23:59:59
      '2026-06-10T17:00:00Z': 'outside_window', // 00:00:00 the next day
    };
    expect(Object.fromEntries(Object.keys(cases).map((t) => [t, verdict({ at: at(t) })]))).toEqual(cases);
  });

  it('one advertising call per number within any rolling 24 hours: Monday 16:30 blocks until Tuesday 16:30', () => {
    const monday1630 = at('2026-06-08T09:30:00Z');
    expect(verdict({ lastAdvertisingCallAt: monday1630, at: at('2026-06-09T01:00:00Z') })).toBe('rolling_cap'); // Tuesday 08:00, a new calendar day
    expect(verdict({ lastAdvertisingCallAt: monday1630, at: at('2026-06-09T09:29:59Z') })).toBe('rolling_cap'); // Tuesday 16:29:59
    expect(verdict({ lastAdvertisingCallAt: monday1630, at: at('2026-06-09T09:30:00Z') })).toBe('allowed'); // Tuesday 16:30:00
    expect(decree91(facts({ lastAdvertisingCallAt: monday1630, at: at('2026-06-09T09:00:00Z') }))).toEqual({
      allowed: false, reason: 'rolling_cap', message: 'Số này đã nhận cuộc gọi quảng cáo trong 24 giờ qua',
    });
  });

  it('never to a number on the tenant list or the national list, with the Vietnamese reason', () => {
    expect(decree91(facts({ dnc: [dnc('tenant')] }))).toEqual({ allowed: false, reason: 'tenant_dnc', message: DECREE91_MESSAGES.tenant_dnc });
    expect(decree91(facts({ dnc: [dnc('national')] }))).toEqual({ allowed: false, reason: 'national_dnc', message: 'Số nằm trong Danh sách không quảng cáo' });
    expect(verdict({ dnc: [dnc('national'), dnc('tenant')] })).toBe('tenant_dnc');
  });

  it('a consent lifts the window and/or the cap, each only when it says so', () => {
    const evening = at('2026-06-10T12:00:00Z'); // 19:00
    const lastHourAgo = at('2026-06-10T02:00:00Z');
    expect(verdict({ at: evening, consent: consent({ lifts_window: true }) })).toBe('allowed');
    expect(verdict({ at: evening, consent: consent({ lifts_cap: true }) })).toBe('outside_window');
    expect(verdict({ lastAdvertisingCallAt: lastHourAgo, consent: consent({ lifts_cap: true }) })).toBe('allowed');
    expect(decree91(facts({ lastAdvertisingCallAt: lastHourAgo, consent: consent({ lifts_cap: true }) }))).toEqual({ allowed: true, capLifted: true });
    expect(verdict({ lastAdvertisingCallAt: lastHourAgo, consent: consent({ lifts_window: true }) })).toBe('rolling_cap');
    expect(verdict({ at: evening, lastAdvertisingCallAt: lastHourAgo, consent: consent({ lifts_window: true, lifts_cap: true }) })).toBe('allowed');
    // Lifting the window and the cap does not lift a DNC entry.
    expect(verdict({ dnc: [dnc('national')], consent: consent({ lifts_window: true, lifts_cap: true }) })).toBe('national_dnc');
  });

  it('a consent overrides a DNC entry only when newer than the entry and saying so', () => {
    const newer = consent({ agreed_at: at('2026-05-01T00:00:00Z'), overrides_dnc: true });
    expect(verdict({ dnc: [dnc('national', '2026-04-01T00:00:00Z')], consent: newer })).toBe('allowed');
    expect(verdict({ dnc: [dnc('tenant', '2026-04-01T00:00:00Z')], consent: newer })).toBe('allowed');
    expect(verdict({ dnc: [dnc('national', '2026-06-01T00:00:00Z')], consent: newer })).toBe('national_dnc'); // listed after the consent
    expect(verdict({ dnc: [dnc('tenant', '2026-04-01T00:00:00Z'), dnc('national', '2026-06-01T00:00:00Z')], consent: newer })).toBe('national_dnc');
    expect(verdict({ dnc: [dnc('national', '2026-05-01T00:00:00Z')], consent: newer })).toBe('national_dnc'); // the same instant is not newer
    expect(verdict({ dnc: [dnc('national')], consent: consent({ agreed_at: at('2026-05-01T00:00:00Z') }) })).toBe('national_dnc'); // newer, but does not say so
  });

  it('advertising only under a registered identity', () => {
    expect(decree91(facts({ advertisingIdentity: false }))).toEqual({ allowed: false, reason: 'no_identity', message: 'Hotline chưa được đăng ký tên định danh để gọi quảng cáo' });
  });

  it.each(['care', 'transactional'] as const)('%s calls: no window, no cap, no identity, no national list, but the tenant list', (kind) => {
    const night = at('2026-06-10T16:00:00Z'); // 23:00
    expect(verdict({ kind, at: night, lastAdvertisingCallAt: at('2026-06-10T15:59:00Z'), advertisingIdentity: false, dnc: [dnc('national')] })).toBe('allowed');
    expect(verdict({ kind, at: night, dnc: [dnc('tenant')] })).toBe('tenant_dnc');
    expect(verdict({ kind, dnc: [dnc('tenant')], consent: consent({ overrides_dnc: true }) })).toBe('allowed');
  });
});
