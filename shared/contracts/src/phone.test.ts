import * as v from 'valibot';
import { MSG } from './messages';
import { CARRIER_PREFIXES, MobilePhoneSchema, allNumberForms, carrierOf, displayForm, storedSearchForm, phoneVariants, internationalForm, isMobileNumber, nationalForm, numberForms, phoneKind, significantNumber, storedForm } from './phone';

describe('Vietnamese phone numbers', () => {
  it('reads every written form of a mobile number as one number: national 0…, stored 84…, international +84…', () => {
    for (const f of ['0912345678', '+84912345678', '+84 91 234 5678', '84912345678', '0084912345678', '091.234.5678', '912345678']) {
      expect([f, nationalForm(f), storedForm(f), internationalForm(f)]).toEqual([f, '0912345678', '84912345678', '+84912345678']);
    }
  });

  it('classifies mobile prefixes 03x 05x 07x 08x 09x (10 digits), landlines 02x (11 digits), 1800/1900', () => {
    for (const m of ['0387654321', '0562345678', '0707123456', '0812345678', '0987654321', '+84868123456']) expect([m, phoneKind(m)]).toEqual([m, 'mobile']);
    for (const l of ['02438251234', '02838295555', '02363123456', '+842873000001', '842438251234']) expect([l, phoneKind(l)]).toEqual([l, 'landline']);
    for (const s of ['18001090', '1800599920', '19001234', '1900545415']) expect([s, phoneKind(s)]).toEqual([s, 'service']);
    for (const o of ['101', '0123456789', '0412345678', '091234567', '+33142345678', '*97', '']) expect([o, phoneKind(o)]).toEqual([o, 'other']);
  });

  it('names the carrier of a mobile number by its prefix, in any form; landlines, service numbers and others are "other"', () => {
    const cases: [string, string][] = [
      ['0987654321', 'viettel'], ['+84362345678', 'viettel'], ['84868123456', 'viettel'], ['0327000111', 'viettel'],
      ['0912345678', 'vinaphone'], ['0941234567', 'vinaphone'], ['0888123456', 'vinaphone'], ['0812345678', 'vinaphone'],
      ['0903123456', 'mobifone'], ['0932123456', 'mobifone'], ['0707123456', 'mobifone'], ['0898123456', 'mobifone'],
      ['0921234567', 'vietnamobile'], ['0562345678', 'vietnamobile'], ['0587000111', 'vietnamobile'],
      ['0993123456', 'gmobile'], ['0591234567', 'gmobile'], ['0877123456', 'itel'], ['0551234567', 'wintel'],
      ['02438251234', 'other'], ['19001234', 'other'], ['1800599920', 'other'], ['101', 'other'], ['0512345678', 'other'], ['+33142345678', 'other'],
    ];
    for (const [n, c] of cases) expect([n, carrierOf(n)]).toEqual([n, c]);
    // 055 was assigned to Mobicast's Reddi (2021), the network since renamed Wintel: in every written form.
    for (const n of ['0551234567', '+84551234567', '84551234567', '551234567', '0084551234567', '055 123 4567']) {
      expect([n, carrierOf(n), phoneKind(n)]).toEqual([n, 'wintel', 'mobile']);
    }
    expect(CARRIER_PREFIXES.wintel).toEqual(['055']);
    // Every prefix is a mobile prefix of the plan, and belongs to one carrier only.
    const all = Object.values(CARRIER_PREFIXES).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const p of all) expect([p, phoneKind(`${p}1234567`)]).toEqual([p, 'mobile']);
  });

  it('keeps landlines at 11 national digits and service numbers without a 0 or a country code', () => {
    expect(nationalForm('+84 28 7300 0001')).toBe('02873000001');
    expect(storedForm('02873000001')).toBe('842873000001');
    expect(nationalForm('+8419001234')).toBe('19001234');
    expect(storedForm('1900545415')).toBe('1900545415');
    expect(internationalForm('18001090')).toBe('18001090');
  });

  it('leaves foreign numbers, extensions and dial strings as they are (cleaned)', () => {
    expect(nationalForm('+33 1 42 34 56 78')).toBe('+33142345678');
    expect(nationalForm('0033142345678')).toBe('0033142345678');
    expect(nationalForm('101')).toBe('101');
    expect(nationalForm('*97')).toBe('*97');
    expect(nationalForm('90987654321')).toBe('90987654321');
    expect(significantNumber('+84123')).toBeNull();
    // A blocked prefix written with the country code still reads nationally.
    expect(nationalForm('+8424')).toBe('024');
    expect(nationalForm('+841900')).toBe('1900');
  });

  it('shows a stored number nationally; a value that is not a Vietnamese number as stored', () => {
    expect(['84912345678', '842438251234', '1900545415', '0912345678'].map(displayForm)).toEqual(['0912345678', '02438251234', '1900545415', '0912345678']);
    for (const other of ['101', '84123456789', '0123456789', '+33142345678', '090 12']) expect(displayForm(other)).toBe(other);
  });

  it('turns the start of a typed national or international number into the stored form for searches', () => {
    expect(['0912', '+8491', '0084 912', '0912345678', '0'].map(storedSearchForm)).toEqual(['84912', '8491', '84912', '84912345678', null]);
    expect(storedSearchForm('(028) 7300-0077')).toBe('842873000077');
    for (const other of ['912', '84912', 'Hương', '', '101', 'Đức 09', 'kh0912', '0912#']) expect(storedSearchForm(other)).toBeNull();
  });

  it('gives the forms routing and table lookups match under', () => {
    expect(numberForms('+84912345678')).toEqual(['+84912345678', '0912345678']);
    expect(numberForms('0912345678')).toEqual(['0912345678']);
    expect(numberForms('2873000003')).toEqual(['2873000003', '02873000003']);
    expect(allNumberForms('02873000001').sort()).toEqual(['+842873000001', '02873000001', '842873000001']);
  });

  it('reads customer phones with SPEC §5 leniency: an optional 0 or 84 before 7–12 digits', () => {
    expect(phoneVariants('+84 912 345 678').sort()).toEqual(['0912345678', '84912345678', '912345678']);
    expect(phoneVariants('0281234567')).toEqual(['0281234567', '281234567', '84281234567']);
    expect(phoneVariants('101')).toEqual(['101']);
  });

  it('isMobileNumber: the SPEC 10-digit check, on a real mobile prefix', () => {
    expect(['0912345678', '0387654321', '0707123456'].map(isMobileNumber)).toEqual([true, true, true]);
    // 10 digits but no mobile prefix; a landline; 9 or 11 digits; written with +84.
    expect(['0123456789', '02438251234', '091234567', '09123456789', '+84912345678'].map(isMobileNumber)).toEqual([false, false, false, false, false]);
  });

  it('MobilePhoneSchema: 0… or +84… typed in a form, refused unless a 10-digit mobile', () => {
    expect(v.parse(MobilePhoneSchema, ' +84 912 345 678 ')).toBe('+84 912 345 678');
    expect(v.parse(MobilePhoneSchema, '0387.654.321')).toBe('0387.654.321');
    for (const bad of ['0123456789', '02438251234', '091234567', '0912 34a 678', '19001234']) {
      expect([bad, v.safeParse(MobilePhoneSchema, bad).issues?.[0].message]).toEqual([bad, MSG.phoneFormat]);
    }
    expect(v.safeParse(MobilePhoneSchema, '').issues?.[0].message).toBe(MSG.required);
  });
});
