import type { CallFigures } from '@tongdai/contracts';
import { actualOf, kpiProgress, kpiWindow, periodDays, type LegFigures } from './progress';

/** An instant given as Vietnam wall time. */
const vn = (wall: string) => new Date(`${wall.replace(' ', 'T')}:00+07:00`);

const fig = (f: Partial<CallFigures>): CallFigures => ({
  calls: 0, calls_in: 0, calls_out: 0, calls_internal: 0, answered: 0, voicemail: 0, auto: 0, missed: 0, busy: 0, failed: 0, blocked: 0,
  talk_sec: 0, avg_talk_sec: 0, wait_sec: 0, answer_rate: 0, csat_count: 0, csat_avg: null, ...f,
});
const legs = (placed: Partial<CallFigures>, received: Partial<CallFigures>, all: Partial<CallFigures>): LegFigures => ({
  placed: fig(placed), received: fig(received), all: fig(all),
});

describe('periodDays (Vietnam calendar)', () => {
  it('weeks run Monday to Sunday', () => {
    expect(periodDays('week', '2026-11-23')).toEqual({ first: '2026-11-23', last: '2026-11-29' }); // a Monday
    expect(periodDays('week', '2026-11-29')).toEqual({ first: '2026-11-23', last: '2026-11-29' }); // its Sunday
    expect(periodDays('week', '2026-12-02')).toEqual({ first: '2026-11-30', last: '2026-12-06' }); // across a month
  });
  it('months end on their last day, February included', () => {
    expect(periodDays('month', '2028-02-10')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(periodDays('month', '2026-12-31')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
    expect(periodDays('day', '2026-12-31')).toEqual({ first: '2026-12-31', last: '2026-12-31' });
  });
});

describe('kpiWindow', () => {
  it('is the current period in Vietnam time, read up to the end of the current hour', () => {
    // 2026-11-24 00:30 in Vietnam is still the 23rd in UTC: the day is Vietnam's.
    const w = kpiWindow({ period: 'day', start_date: '2026-11-01' }, vn('2026-11-24 00:30'));
    expect([w.period_from, w.period_to]).toEqual(['2026-11-24', '2026-11-24']);
    expect(w.read).toEqual({ from: vn('2026-11-24 00:00'), to: vn('2026-11-24 01:00') });
    expect(w.elapsed).toBeCloseTo(0.5 / 24, 6);
  });
  it('a KPI starting mid-week counts from its start', () => {
    const w = kpiWindow({ period: 'week', start_date: '2026-11-25' }, vn('2026-11-27 12:00'));
    expect(w.period_from).toBe('2026-11-23');
    expect(w.from).toEqual(vn('2026-11-25 00:00'));
    expect(w.elapsed).toBeCloseTo(2.5 / 5, 6);
  });
  it('a KPI that starts later is not read and shows its first period', () => {
    const w = kpiWindow({ period: 'month', start_date: '2026-12-03' }, vn('2026-11-27 12:00'));
    expect(w.read).toBeNull();
    expect([w.period_from, w.period_to]).toEqual(['2026-12-01', '2026-12-31']);
    expect(w.elapsed).toBe(0);
  });
  it('never reads past the period end', () => {
    const w = kpiWindow({ period: 'day', start_date: '2026-11-01' }, vn('2026-11-24 23:10'));
    expect(w.read?.to).toEqual(vn('2026-11-25 00:00'));
  });
});

describe('actualOf', () => {
  const f = legs({ calls: 7, answered: 5 }, { calls: 4, answered: 3 }, { calls: 11, answered: 8, talk_sec: 930, answer_rate: 8 / 11, avg_talk_sec: 116 });
  it('takes each measure from the read model figures', () => {
    expect(actualOf('calls_made', f)).toBe(7);
    expect(actualOf('calls_answered', f)).toBe(3);
    expect(actualOf('talk_time', f)).toBe(15.5);
    expect(actualOf('answer_rate', f)).toBe(72.7);
    expect(actualOf('avg_handle_time', f)).toBe(116);
  });
});

describe('kpiProgress', () => {
  const noon = kpiWindow({ period: 'day', start_date: '2026-11-01' }, vn('2026-11-24 12:00'));
  const made = (calls: number) => legs({ calls }, {}, { calls });
  it('cumulative: on track while keeping up with the elapsed share, met at the target', () => {
    expect(kpiProgress({ measure: 'calls_made', target: 40 }, noon, made(20))).toMatchObject({ actual: 20, percent: 50, status: 'on_track' });
    expect(kpiProgress({ measure: 'calls_made', target: 40 }, noon, made(19))).toMatchObject({ percent: 47.5, status: 'behind' });
    expect(kpiProgress({ measure: 'calls_made', target: 40 }, noon, made(41))).toMatchObject({ percent: 102.5, status: 'met' });
  });
  it('survey calls completed: counted from the attempts, cumulative like calls made', () => {
    const done = (n: number) => ({ survey_calls_completed: n });
    expect(kpiProgress({ measure: 'survey_calls_completed', target: 10 }, noon, done(5))).toMatchObject({ actual: 5, percent: 50, status: 'on_track' });
    expect(kpiProgress({ measure: 'survey_calls_completed', target: 10 }, noon, done(4))).toMatchObject({ actual: 4, status: 'behind' });
    expect(kpiProgress({ measure: 'survey_calls_completed', target: 10 }, noon, done(10))).toMatchObject({ status: 'met' });
  });
  it('answer rate is compared with its target, whatever the hour', () => {
    const rate = (answered: number, calls: number) => legs({}, {}, { calls, answered, answer_rate: calls ? answered / calls : 0 });
    expect(kpiProgress({ measure: 'answer_rate', target: 80 }, noon, rate(4, 5))).toMatchObject({ actual: 80, percent: 100, status: 'on_track' });
    expect(kpiProgress({ measure: 'answer_rate', target: 80 }, noon, rate(3, 5))).toMatchObject({ actual: 60, status: 'behind' });
    expect(kpiProgress({ measure: 'answer_rate', target: 80 }, noon, rate(0, 0))).toMatchObject({ actual: 0, status: 'no_calls' });
  });
  it('average handle time is a ceiling', () => {
    const aht = (avg: number) => legs({}, {}, { calls: 2, answered: 2, avg_talk_sec: avg });
    expect(kpiProgress({ measure: 'avg_handle_time', target: 180 }, noon, aht(150))).toMatchObject({ percent: 83.3, status: 'on_track' });
    expect(kpiProgress({ measure: 'avg_handle_time', target: 180 }, noon, aht(200))).toMatchObject({ status: 'behind' });
  });
  it('mean CSAT is compared with its target like the answer rate (higher is better); no rated call yet: no_calls', () => {
    const csat = (count: number, avg: number | null) => legs({}, {}, { calls: 3, answered: 3, csat_count: count, csat_avg: avg });
    expect(kpiProgress({ measure: 'csat_avg', target: 4 }, noon, csat(2, 4.5))).toMatchObject({ actual: 4.5, percent: 112.5, status: 'on_track' });
    expect(kpiProgress({ measure: 'csat_avg', target: 4 }, noon, csat(1, 3))).toMatchObject({ actual: 3, status: 'behind' });
    expect(kpiProgress({ measure: 'csat_avg', target: 4 }, noon, csat(0, null))).toMatchObject({ actual: 0, status: 'no_calls' });
  });
  it('before its start a KPI has no actual', () => {
    const later = kpiWindow({ period: 'day', start_date: '2026-11-30' }, vn('2026-11-24 12:00'));
    expect(kpiProgress({ measure: 'calls_made', target: 10 }, later, null)).toEqual({
      period_from: '2026-11-30', period_to: '2026-11-30', elapsed: 0, actual: 0, percent: 0, status: 'not_started',
    });
  });
});
