import { cleanNumber, INTERNATIONAL_PREFIXES, numberForms, PREMIUM_PREFIXES, VN_COUNTRY_CODE as COUNTRY } from '@tongdai/contracts';

/**
 * Asterisk-style patterns and the outbound policy on numbers. Numbers are compared in their
 * national form too (the phone module of @tongdai/contracts): carriers send +84 912 345 678,
 * 84912345678 or 0912345678 for the same Vietnamese number.
 */

/** International: starts with + or 00, except the country's own code (+84, 0084). */
export function isInternational(dialled: string): boolean {
  const c = cleanNumber(dialled);
  if (c.startsWith(`+${COUNTRY}`) || c.startsWith(`00${COUNTRY}`)) return false;
  return INTERNATIONAL_PREFIXES.some((p) => c.startsWith(p));
}

/** Premium-rate: 1900… (also written +84 1900…). */
export function isPremium(dialled: string): boolean {
  const c = cleanNumber(dialled);
  const nat = c.startsWith(`+${COUNTRY}`) ? c.slice(3) : c.startsWith(`00${COUNTRY}`) ? c.slice(4) : c;
  return PREMIUM_PREFIXES.some((p) => c.startsWith(p) || nat.startsWith(p));
}

export interface CompiledPattern {
  source: string;
  regex: RegExp;
  /** Higher = more specific (sorts exact numbers first, then fewer wildcards). */
  specificity: number;
}

/**
 * Compiles a CALLER_PATTERN / DIAL_PATTERN: X = 0-9, Z = 1-9, N = 2-9, [1-5] classes, a trailing
 * "." = one or more of anything; other characters literal. Specificity: patterns without "."
 * beat those with it, then each position counts more the fewer digits it accepts.
 */
export function compilePattern(pattern: string): CompiledPattern {
  let re = '';
  let score = 0;
  let dot = false;
  const p = pattern.trim();
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    const up = ch.toUpperCase();
    if (up === 'X') {
      re += '[0-9]';
      score += 1;
    } else if (up === 'Z') {
      re += '[1-9]';
      score += 2;
    } else if (up === 'N') {
      re += '[2-9]';
      score += 3;
    } else if (ch === '[') {
      const close = p.indexOf(']', i);
      const body = close > i ? p.slice(i + 1, close) : '';
      const digits = new Set<string>();
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          for (let d = Number(body[k]); d <= Number(body[k + 2]); d++) digits.add(String(d));
          k += 2;
        } else if (/\d/.test(body[k])) digits.add(body[k]);
      }
      re += digits.size ? `[${[...digits].join('')}]` : '(?!)';
      score += 10 - Math.min(digits.size, 9);
      i = close > i ? close : p.length;
    } else if (ch === '.' && i === p.length - 1) {
      re += '.+';
      dot = true;
    } else {
      re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      score += 10;
    }
  }
  return { source: p, regex: new RegExp(`^${re}$`, 'i'), specificity: (dot ? 0 : 100_000) + score };
}

/** The form of `number` (as received first, then national) the pattern matches, or null. */
export const matchForm = (p: CompiledPattern, number: string): string | null => numberForms(number).find((n) => p.regex.test(n)) ?? null;
