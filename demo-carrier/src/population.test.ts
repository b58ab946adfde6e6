import { carrierOf, phoneKind, seeded } from '@tongdai/contracts';
import { DEFAULT_POPULATION, describePopulation, drawPlan, inPopulation, parsePopulation } from './population';

describe('the population', () => {
  it('is the numbers 09995xxxxx by default, in any written form, and a Vietnamese mobile range a campaign takes', () => {
    for (const n of ['0999512345', '84999512345', '+84999512345', '999512345']) expect(inPopulation(DEFAULT_POPULATION, n)).toBe(true);
    for (const n of ['0999012345', '0912345678', '02873001234', '1900123456', '101']) expect(inPopulation(DEFAULT_POPULATION, n)).toBe(false);
    // canonicalNumber (the campaign contacts' and Decree 91's check) takes every number phoneKind calls mobile.
    expect(phoneKind('0999512345')).toBe('mobile');
    expect(carrierOf('0999512345')).toBe('gmobile');
    expect(inPopulation({ ...DEFAULT_POPULATION, prefixes: [] }, '0999512345')).toBe(false);
  });

  it('draws the default shares, delays and talk times from its random source', () => {
    const random = seeded(7);
    const plans = Array.from({ length: 5000 }, () => drawPlan(DEFAULT_POPULATION, random));
    const share = (fate: string) => plans.filter((p) => p.fate === fate).length / plans.length;
    expect(share('answered')).toBeCloseTo(0.3, 1);
    expect(share('busy')).toBeCloseTo(0.1, 1);
    expect(share('no_answer')).toBeCloseTo(0.6, 1);
    const answered = plans.flatMap((p) => (p.fate === 'answered' ? [p] : []));
    expect(Math.min(...answered.map((p) => p.ringMs))).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...answered.map((p) => p.ringMs))).toBeLessThanOrEqual(10_000);
    const busy = plans.flatMap((p) => (p.fate === 'busy' ? [p.ringMs] : []));
    expect(Math.min(...busy)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...busy)).toBeLessThanOrEqual(2000);
    // Log-normal: the logarithms' median is ln 90 s, their spread σ 0.5.
    const logs = answered.map((p) => Math.log(p.talkMs! / 1000)).sort((a, b) => a - b);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    expect(Math.exp(logs[Math.floor(logs.length / 2)])).toBeGreaterThan(80);
    expect(Math.exp(logs[Math.floor(logs.length / 2)])).toBeLessThan(100);
    expect(Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / logs.length)).toBeCloseTo(0.5, 1);
  });

  it('gives the same fates for the same seed', () => {
    const fates = (seed: number) => {
      const r = seeded(seed);
      return Array.from({ length: 50 }, () => drawPlan(DEFAULT_POPULATION, r));
    };
    expect(fates(3)).toEqual(fates(3));
    expect(fates(3)).not.toEqual(fates(4));
  });

  it('says at start who the population is and how to change it', () => {
    const line = describePopulation(DEFAULT_POPULATION, 'http://127.0.0.1:4095');
    expect(line).toContain('09995xxxxx');
    expect(line).toContain('30 % answer after 2–10 s');
    expect(line).toContain('10 % busy');
    expect(line).toContain('60 % never answer');
    expect(line).toContain("curl -X PUT http://127.0.0.1:4095/population -H 'content-type: application/json'");
  });
});

describe('parsePopulation (PUT /population)', () => {
  const code = (input: unknown) => {
    const r = parsePopulation(input, DEFAULT_POPULATION);
    return r.ok ? 'ok' : r.code;
  };

  it('changes only what the body names, prefixes in their national form', () => {
    const r = parsePopulation({ answer: 0.5, prefixes: ['+849995', '849996', '09997', '09997'], answer_delay_s: [1, 3] }, DEFAULT_POPULATION);
    expect(r).toEqual({ ok: true, settings: { ...DEFAULT_POPULATION, answer: 0.5, prefixes: ['09995', '09996', '09997'], answer_delay_s: [1, 3] } });
    expect(parsePopulation({}, DEFAULT_POPULATION)).toEqual({ ok: true, settings: DEFAULT_POPULATION });
  });

  it('refuses bad settings with a code and a Vietnamese message', () => {
    expect(code({ answer: 1.5 })).toBe('invalid_answer');
    expect(code({ busy: -0.1 })).toBe('invalid_busy');
    expect(code({ answer: '0.3' })).toBe('invalid_answer');
    expect(code({ answer: 0.8, busy: 0.3 })).toBe('shares_over_one');
    expect(code({ answer: 0.9 })).toBe('ok');
    expect(code({ answer: 0.95 })).toBe('shares_over_one');
    expect(code({ answer_delay_s: [0, 2] })).toBe('invalid_answer_delay_s');
    expect(code({ answer_delay_s: [5, 2] })).toBe('invalid_answer_delay_s');
    expect(code({ answer_delay_s: 3 })).toBe('invalid_answer_delay_s');
    expect(code({ busy_delay_s: [1, 1000] })).toBe('invalid_busy_delay_s');
    expect(code({ talk_median_s: 0 })).toBe('invalid_talk_median_s');
    expect(code({ talk_sigma: -1 })).toBe('invalid_talk_sigma');
    expect(code({ prefixes: '09995' })).toBe('invalid_prefixes');
    expect(code({ prefixes: ['09a'] })).toBe('invalid_prefixes');
    expect(code({ prefixes: ['0'] })).toBe('invalid_prefixes');
    expect(code({ prefixes: [] })).toBe('ok');
    expect(code({ answr: 0.3 })).toBe('unknown_field');
    expect(code([1])).toBe('bad_json');
    const r = parsePopulation({ answer: 2 }, DEFAULT_POPULATION);
    expect(!r.ok && r.message).toBe('"answer" phải là tỉ lệ từ 0 đến 1, ví dụ 0.3');
  });
});
