import { nationalForm } from '@tongdai/contracts';
import type { Plan } from './inbound-call';

/**
 * The subscribers behind a range of numbers (issue 34): a campaign that dials them meets people,
 * not an answering machine. Each call draws its fate: answered after a pause then talked for a
 * while, busy, or never answered. Numbers outside the prefixes are answered as they always were.
 */
export interface PopulationSettings {
  /** National prefixes ("09995"): a called number starting with one is a person. Empty: nobody. */
  prefixes: string[];
  /** Share of calls answered. */
  answer: number;
  /** Share of calls refused with 486 Busy Here; the rest ring until the caller gives up. */
  busy: number;
  /** Ringing before an answer, uniform in [min, max] seconds. */
  answer_delay_s: [number, number];
  /** Ringing before 486, uniform in [min, max] seconds. */
  busy_delay_s: [number, number];
  /** Talk time: log-normal with this median (seconds)… */
  talk_median_s: number;
  /** …and this σ of its logarithm. */
  talk_sigma: number;
}

/**
 * 0999 5xx xxx: Gmobile's 099 range, a Vietnamese mobile number the product takes for a campaign
 * contact (Decree 91 does not refuse it as invalid), that nobody types by chance for a manual test
 * (the tests' own 0999 0… numbers stay outside). Shares and talk time as issue 34 and
 * notes/dialer.md's workload (30 % answer, talk median 90 s, σ 0.5).
 */
export const DEFAULT_POPULATION: PopulationSettings = {
  prefixes: ['09995'],
  answer: 0.3,
  busy: 0.1,
  answer_delay_s: [2, 10],
  busy_delay_s: [0.5, 2],
  talk_median_s: 90,
  talk_sigma: 0.5,
};

/** A prefix in the national form the numbers are compared in: +84…, 0084… and 84… become 0…. */
const nationalPrefix = (p: string): string => {
  const d = p.replace(/^\+/, '');
  if (d.startsWith('0084')) return `0${d.slice(4)}`;
  if (d.startsWith('0')) return d;
  return `0${d.startsWith('84') ? d.slice(2) : d}`;
};

/** Whether `called` (0…, 84…, +84… or the bare national number) is one of the population's. */
export const inPopulation = (s: PopulationSettings, called: string): boolean => {
  const n = nationalForm(called);
  return s.prefixes.some((p) => n.startsWith(p));
};

const between = ([min, max]: [number, number], u: number) => min + u * (max - min);

/** One call's fate from `random`: always five draws, so a seed gives the same fates in the same order. */
export function drawPlan(s: PopulationSettings, random: () => number): Plan {
  const u = random();
  const answerDelay = between(s.answer_delay_s, random());
  const busyDelay = between(s.busy_delay_s, random());
  // Box–Muller: a standard normal from two uniforms.
  const z = Math.sqrt(-2 * Math.log(Math.max(random(), 1e-12))) * Math.cos(2 * Math.PI * random());
  if (u < s.answer) return { fate: 'answered', ringMs: answerDelay * 1000, talkMs: s.talk_median_s * Math.exp(s.talk_sigma * z) * 1000 };
  if (u < s.answer + s.busy) return { fate: 'busy', ringMs: busyDelay * 1000 };
  return { fate: 'no_answer' };
}

export const POPULATION_MSG = {
  notObject: 'Nội dung phải là một đối tượng JSON, ví dụ {"answer": 0.5}',
  unknown: (key: string) => `Không có thiết lập "${key}". Các thiết lập: ${Object.keys(DEFAULT_POPULATION).join(', ')}`,
  prefixes: '"prefixes" phải là danh sách tối đa 20 đầu số, mỗi đầu số 2 đến 15 chữ số (có thể bắt đầu bằng +84), ví dụ ["09995"]',
  share: (key: string) => `"${key}" phải là tỉ lệ từ 0 đến 1, ví dụ 0.3`,
  sharesOverOne: 'Tổng "answer" và "busy" không được vượt quá 1',
  delay: (key: string) => `"${key}" phải có dạng [nhỏ nhất, lớn nhất] tính bằng giây, với 0 < nhỏ nhất ≤ lớn nhất ≤ 600`,
  talkMedian: '"talk_median_s" phải là số giây lớn hơn 0 và không quá 3600',
  talkSigma: '"talk_sigma" phải là số từ 0 đến 3',
} as const;

export type PopulationCheck = { ok: true; settings: PopulationSettings } | { ok: false; code: string; message: string };

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isDelay = (x: unknown): x is [number, number] => Array.isArray(x) && x.length === 2 && x.every(isNumber) && x[0] > 0 && x[0] <= x[1] && x[1] <= 600;

/** PUT /population's body over the current settings: the settings it names, checked, or why not. */
export function parsePopulation(input: unknown, current: PopulationSettings): PopulationCheck {
  const fail = (code: string, message: string): PopulationCheck => ({ ok: false, code, message });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('bad_json', POPULATION_MSG.notObject);
  const o = input as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !(k in DEFAULT_POPULATION));
  if (unknown !== undefined) return fail('unknown_field', POPULATION_MSG.unknown(unknown));
  const next = { ...current, ...o } as Record<keyof PopulationSettings, unknown>;
  const p = next.prefixes;
  if (!Array.isArray(p) || p.length > 20 || !p.every((x) => typeof x === 'string' && /^\+?\d+$/.test(x) && /^0\d{1,14}$/.test(nationalPrefix(x)))) return fail('invalid_prefixes', POPULATION_MSG.prefixes);
  for (const key of ['answer', 'busy'] as const) if (!isNumber(next[key]) || next[key] < 0 || next[key] > 1) return fail(`invalid_${key}`, POPULATION_MSG.share(key));
  if ((next.answer as number) + (next.busy as number) > 1 + 1e-9) return fail('shares_over_one', POPULATION_MSG.sharesOverOne);
  for (const key of ['answer_delay_s', 'busy_delay_s'] as const) if (!isDelay(next[key])) return fail(`invalid_${key}`, POPULATION_MSG.delay(key));
  if (!isNumber(next.talk_median_s) || next.talk_median_s <= 0 || next.talk_median_s > 3600) return fail('invalid_talk_median_s', POPULATION_MSG.talkMedian);
  if (!isNumber(next.talk_sigma) || next.talk_sigma < 0 || next.talk_sigma > 3) return fail('invalid_talk_sigma', POPULATION_MSG.talkSigma);
  const settings = next as unknown as PopulationSettings;
  return { ok: true, settings: { ...settings, prefixes: [...new Set((p as string[]).map(nationalPrefix))], answer_delay_s: [...settings.answer_delay_s], busy_delay_s: [...settings.busy_delay_s] } };
}

/** The start-up line: who the population is, how they behave, and how to change it. */
export function describePopulation(s: PopulationSettings, controlUrl: string): string {
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  const who = s.prefixes.length ? s.prefixes.map((p) => `${p}${'x'.repeat(Math.max(0, 10 - p.length))}`).join(', ') : '(none)';
  return `population: calls to ${who} meet people: ${pct(s.answer)} answer after ${s.answer_delay_s[0]}–${s.answer_delay_s[1]} s and talk ~${s.talk_median_s} s (log-normal, σ ${s.talk_sigma}) pressing a key 1–5 now and then (a voice survey's answers), ${pct(s.busy)} busy (486), ${pct(Math.max(0, 1 - s.answer - s.busy))} never answer; change: curl -X PUT ${controlUrl}/population -H 'content-type: application/json' -d '{"answer": 0.5, "busy": 0.1}' (GET /population shows the settings)`;
}
