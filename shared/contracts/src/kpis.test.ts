import * as v from 'valibot';
import { KpiCreateSchema, KpiListQuerySchema, KpiUpdateSchema, KPI_MSG } from './kpis';
import { MSG } from './messages';
import { vnDay } from './reports';

const today = vnDay(new Date());
const valid = { name: 'Gọi ra mỗi ngày', measure: 'calls_made', target: '40', period: 'day', start_date: today, assignee: { type: 'user', id: '3' } };
const messages = (schema: typeof KpiCreateSchema, input: unknown) => {
  const r = v.safeParse(schema, input);
  // The first message of each field, as the form and the API show it.
  return r.success ? {} : Object.fromEntries(r.issues.map((i) => [v.getDotPath(i), i.message]).reverse());
};

describe('KPI schemas', () => {
  it('parses a form draft into the API input', () => {
    expect(v.parse(KpiCreateSchema, valid)).toEqual({ ...valid, target: 40, measure: 'calls_made', assignee: { type: 'user', id: 3 } });
    expect(v.parse(KpiCreateSchema, { ...valid, target: '12,5', measure: 'talk_time' }).target).toBe(12.5);
  });
  it('says in Vietnamese what is empty', () => {
    const m = messages(KpiCreateSchema, { name: ' ', measure: '', target: '', period: '', start_date: '', assignee: { type: 'team', id: '' } });
    expect(m).toEqual({ name: MSG.required, measure: MSG.required, target: MSG.required, period: MSG.required, start_date: MSG.required, 'assignee.id': MSG.required });
  });
  it('refuses a target that is not positive, and a rate above 100 %', () => {
    expect(messages(KpiCreateSchema, { ...valid, target: '0' })).toEqual({ target: KPI_MSG.targetPositive });
    expect(messages(KpiCreateSchema, { ...valid, target: '-5' })).toEqual({ target: KPI_MSG.targetPositive });
    expect(messages(KpiCreateSchema, { ...valid, target: 'abc' })).toEqual({ target: KPI_MSG.targetNumber });
    expect(messages(KpiCreateSchema, { ...valid, measure: 'answer_rate', target: '120' })).toEqual({ target: KPI_MSG.rateOver100 });
  });
  it('a CSAT target is a score from 1 to 5, decimals allowed ("4,5")', () => {
    expect(messages(KpiCreateSchema, { ...valid, measure: 'csat_avg', target: '7' })).toEqual({ target: KPI_MSG.csatRange });
    const low = v.safeParse(KpiUpdateSchema, { ...valid, measure: 'csat_avg', target: '0,5' });
    expect(!low.success && low.issues.map((i) => i.message)).toEqual([KPI_MSG.csatRange]);
    const ok = v.safeParse(KpiCreateSchema, { ...valid, measure: 'csat_avg', target: '4,5' });
    expect(ok.success && ok.output.target).toBe(4.5);
  });
  it('refuses a start in the past when creating, not when editing', () => {
    const input = { ...valid, start_date: '2020-01-01' };
    expect(messages(KpiCreateSchema, input)).toEqual({ start_date: KPI_MSG.startInPast });
    expect(v.safeParse(KpiUpdateSchema, input).success).toBe(true);
    expect(messages(KpiCreateSchema, { ...valid, start_date: '2026-02-30' })).toEqual({ start_date: KPI_MSG.badDate });
  });
  it('list filters: "" is all, an unknown value is refused', () => {
    expect(v.parse(KpiListQuerySchema, {})).toEqual({ page: 1, per_page: 10, search: '', period: '', assignee_type: '' });
    expect(v.safeParse(KpiListQuerySchema, { period: 'year' }).success).toBe(false);
  });
});
