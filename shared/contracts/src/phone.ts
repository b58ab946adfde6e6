/**
 * Vietnamese phone numbers, one set of rules for the API, the routing engine and the screens.
 *
 * A number is written +84 912 345 678, 0084912345678, 84912345678, 0912345678 or (by some
 * carriers and spreadsheets) 912345678; all name the same national significant number (NSN)
 * 912345678. Plan since 2018: mobile NSN 9 digits starting 3, 5, 7, 8 or 9 (national 03x, 05x,
 * 07x, 08x, 09x: 10 digits); landline NSN 10 digits starting 2 (national 02x…: 11 digits);
 * service numbers 1800… (free) and 1900… (premium), 8 or 10 digits, dialled without a 0.
 * Stored form: 84 + NSN (service numbers as dialled). Extensions and short codes stay themselves.
 */
import * as v from 'valibot';
import { MSG } from './messages';

export const VN_COUNTRY_CODE = '84';

/** SPEC §5: a phone number of exactly 10 digits (where a mobile number is entered). */
export const TEN_DIGIT_PHONE_PATTERN = /^\d{10}$/;

export type PhoneKind = 'mobile' | 'landline' | 'service' | 'other';

const MOBILE_NSN = /^[35789]\d{8}$/;
const LANDLINE_NSN = /^2\d{9}$/;
const SERVICE = /^(1800|1900)(\d{4}|\d{6})$/;

/** Digits (and a leading +) only: spaces, dots, dashes and brackets dropped; * and # kept (dial strings). */
export const cleanNumber = (n: string): string => {
  const t = n.trim();
  return (t.startsWith('+') ? '+' : '') + t.replace(/[^0-9*#]/g, '');
};

const isVnNsn = (d: string): boolean => MOBILE_NSN.test(d) || LANDLINE_NSN.test(d) || SERVICE.test(d);

/**
 * The NSN of a Vietnamese number in any of its forms, or null (a foreign or malformed number, an
 * extension, a dial string with * or #). `lenient` also reads SPEC §5's customer phones: an
 * optional 0 or 84 before 7–12 digits.
 */
export function significantNumber(n: string, lenient = false): string | null {
  const c = cleanNumber(n);
  if (!/^\+?\d+$/.test(c)) return null;
  let rest: string | null = null;
  if (c.startsWith(`+${VN_COUNTRY_CODE}`)) rest = c.slice(3);
  else if (c.startsWith(`00${VN_COUNTRY_CODE}`)) rest = c.slice(4);
  else if (c.startsWith('+') || c.startsWith('00')) return null;
  else if (c.startsWith(VN_COUNTRY_CODE) && isVnNsn(c.slice(2))) rest = c.slice(2);
  else if (c.startsWith('0') && isVnNsn(c.slice(1))) rest = c.slice(1);
  else if (isVnNsn(c)) rest = c;
  if (rest !== null) return isVnNsn(rest) || lenient ? rest : null;
  if (!lenient) return null;
  // SPEC §5: an optional leading 0 or 84, then 7 to 12 digits.
  return /^(?:84|0)?(\d{7,12})$/.exec(c)?.[1] ?? null;
}

/** Mobile, landline, 1800/1900 service number, or anything else. */
export function phoneKind(n: string): PhoneKind {
  const nsn = significantNumber(n);
  if (nsn === null) return 'other';
  if (SERVICE.test(nsn)) return 'service';
  return MOBILE_NSN.test(nsn) ? 'mobile' : 'landline';
}

/** Vietnamese mobile carriers (the carrier view of /reports/fpt/call-history), and "other". */
export type Carrier = 'viettel' | 'vinaphone' | 'mobifone' | 'vietnamobile' | 'gmobile' | 'itel' | 'wintel' | 'other';
export const CARRIER_NAMES: Record<Carrier, string> = {
  viettel: 'Viettel', vinaphone: 'Vinaphone', mobifone: 'Mobifone', vietnamobile: 'Vietnamobile', gmobile: 'Gmobile',
  itel: 'iTel', wintel: 'Wintel', other: 'Khác',
};
/**
 * Mobile prefixes (national 0xx, the plan since the 2018 conversion of 11-digit numbers) of each
 * carrier. A number keeps its prefix's carrier even when ported (MNP is not visible in the number).
 */
export const CARRIER_PREFIXES: Record<Exclude<Carrier, 'other'>, readonly string[]> = {
  viettel: ['032', '033', '034', '035', '036', '037', '038', '039', '086', '096', '097', '098'],
  vinaphone: ['081', '082', '083', '084', '085', '088', '091', '094'],
  mobifone: ['070', '076', '077', '078', '079', '089', '090', '093'],
  vietnamobile: ['052', '056', '058', '092'],
  gmobile: ['059', '099'],
  itel: ['087'],
  // 055: Mobicast's Reddi (assigned 2021), renamed Wintel.
  wintel: ['055'],
};
const CARRIER_BY_PREFIX = new Map(Object.entries(CARRIER_PREFIXES).flatMap(([c, ps]) => ps.map((p) => [p.slice(1), c as Carrier])));

/** The carrier of a Vietnamese mobile number by its prefix, in any written form; "other" for anything else. */
export function carrierOf(n: string): Carrier {
  const nsn = significantNumber(n);
  return nsn !== null && MOBILE_NSN.test(nsn) ? (CARRIER_BY_PREFIX.get(nsn.slice(0, 2)) ?? 'other') : 'other';
}

const withPrefix = (nsn: string, prefix: string): string => (/^1[89]00/.test(nsn) ? nsn : `${prefix}${nsn}`);

/**
 * 0912345678 (1900xxxx for service numbers); a number that is not Vietnamese comes back cleaned.
 * A prefix written with the country code is converted too ("+8424" → "024"), for blocked prefixes.
 */
export const nationalForm = (n: string): string => {
  const nsn = significantNumber(n);
  if (nsn !== null) return withPrefix(nsn, '0');
  const c = cleanNumber(n);
  const rest = c.startsWith(`+${VN_COUNTRY_CODE}`) ? c.slice(3) : c.startsWith(`00${VN_COUNTRY_CODE}`) ? c.slice(4) : null;
  return rest !== null && /^\d+$/.test(rest) ? withPrefix(rest, '0') : c;
};

/** The stored form, 84912345678 (1900xxxx for service numbers); other numbers cleaned. */
export const storedForm = (n: string): string => {
  const nsn = significantNumber(n);
  return nsn === null ? cleanNumber(n) : withPrefix(nsn, VN_COUNTRY_CODE);
};

/**
 * How a stored number is shown and answered by the API: a Vietnamese number in its national form
 * (0912345678), anything else exactly as stored (a legacy or foreign value is never rewritten).
 */
export const displayForm = (stored: string): string => (significantNumber(stored) === null ? stored : nationalForm(stored));

/**
 * A search term typed as the start of a national or international number ("0912", "+8491"), in
 * the stored form ("84912", "8491") so a list search also finds numbers stored as 84…; null for a
 * term that is not such a number (it is searched as typed only).
 */
export function storedSearchForm(term: string): string | null {
  // Only a term that is a number as people write one: "Đức 09" is a name and a digit, not a number.
  if (!/^\s*\+?[\d\s.()-]+$/.test(term)) return null;
  const c = cleanNumber(term);
  const rest = /^(?:\+84|0084|0)(\d+)$/.exec(c)?.[1];
  return rest === undefined ? null : `${VN_COUNTRY_CODE}${rest}`;
}

/** +84912345678 (1900xxxx for service numbers); other numbers cleaned. */
export const internationalForm = (n: string): string => {
  const nsn = significantNumber(n);
  return nsn === null ? cleanNumber(n) : withPrefix(nsn, `+${VN_COUNTRY_CODE}`);
};

/** The forms a number is matched under in routing and call records: as received (cleaned), then national. */
export function numberForms(n: string): string[] {
  const c = cleanNumber(n);
  return [...new Set([c, nationalForm(c)])];
}

/** Every way a Vietnamese number may be written in a table (DIDs): as received, national, stored, international. */
export function allNumberForms(n: string): string[] {
  return [...new Set([cleanNumber(n), nationalForm(n), storedForm(n), internationalForm(n)])];
}

/**
 * The forms a customer's phone may be stored in (SPEC §5 pattern: no +): as received, NSN, 0…, 84….
 * A number with * or #, or empty, matches nothing; an extension or short code only itself.
 */
export function phoneVariants(raw: string): string[] {
  const digits = cleanNumber(raw).replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return [];
  const nsn = significantNumber(raw, true);
  return nsn ? [...new Set([digits, nsn, `0${nsn}`, `${VN_COUNTRY_CODE}${nsn}`])] : [digits];
}

/** The number is a Vietnamese mobile number entered as 10 national digits (SPEC §5 10-digit check + plan). */
export const isMobileNumber = (n: string): boolean => TEN_DIGIT_PHONE_PATTERN.test(n) && phoneKind(n) === 'mobile' && n.startsWith('0');

/**
 * A mobile number typed in a form (signup, profile, accounts): 0… or +84… with optional spaces or
 * dots, held in its national form to SPEC §5's 10-digit check on a mobile prefix.
 */
export const MobilePhoneSchema = v.config(
  v.pipe(
    v.string(MSG.required),
    v.trim(),
    v.nonEmpty(MSG.required),
    v.regex(/^\+?[\d .]+$/, MSG.phoneFormat),
    // A check, not a transform: a transform would make the whole form untyped on a bad number and
    // hide the other cross-field messages (password confirmation).
    v.check((s) => isMobileNumber(nationalForm(s)), MSG.phoneFormat),
  ),
  { abortPipeEarly: true },
);
