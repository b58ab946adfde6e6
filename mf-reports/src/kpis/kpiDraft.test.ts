import { act, renderHook } from '@testing-library/react';
import { useEntityDraft } from '@tongdai/ui';
import { kpiAddEntity, kpiEntity } from './kpis.entity';

describe('the kit draft over the KPI schemas', () => {
  it('says what is empty in Vietnamese, under each field (the assignee under its picker)', () => {
    const { result } = renderHook(() => useEntityDraft(kpiAddEntity, undefined));
    act(() => { result.current.validate(); });
    const required = 'Thông tin không được để trống';
    expect(result.current.errors).toEqual({ name: required, measure: required, target: required, period: required, start_date: required, 'assignee.id': required });
  });

  it('turns the form into the API input: target as a number, assignee by type and id', () => {
    const { result } = renderHook(() => useEntityDraft(kpiAddEntity, undefined, { start_date: '2999-01-01' }));
    act(() => {
      for (const [k, v] of Object.entries({ name: 'Gọi ra', measure: 'calls_made', target: '40', period: 'week', assignee: { type: 'team', id: '4' } })) result.current.set(k)(v);
    });
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toEqual({ name: 'Gọi ra', measure: 'calls_made', target: 40, period: 'week', start_date: '2999-01-01', assignee: { type: 'team', id: 4 } });
  });

  it('refuses a past start when adding, keeps it when editing', () => {
    const row = { name: 'Cũ', measure: 'talk_time', target: 30, period: 'month', start_date: '2020-01-01', assignee: { type: 'user', id: 2 } };
    const add = renderHook(() => useEntityDraft(kpiAddEntity, row)).result;
    act(() => { add.current.validate(); });
    expect(add.current.errors).toEqual({ start_date: 'Ngày bắt đầu không được ở trong quá khứ' });
    const edit = renderHook(() => useEntityDraft(kpiEntity, row)).result;
    let out: unknown;
    act(() => { out = edit.current.validate(); });
    expect(out).toMatchObject({ start_date: '2020-01-01', target: 30, assignee: { type: 'user', id: 2 } });
  });

  it('CSAT: the measure is offered, and its target takes a decimal score typed the Vietnamese way', () => {
    const measure = kpiEntity.fields.find((f) => f.name === 'measure');
    expect(measure && 'options' in measure && measure.options).toMatchObject({ csat_avg: 'Điểm hài lòng trung bình (CSAT)' });
    const { result } = renderHook(() => useEntityDraft(kpiAddEntity, undefined, { start_date: '2999-01-01' }));
    act(() => {
      for (const [k, v] of Object.entries({ name: 'Hài lòng', measure: 'csat_avg', target: '4,5', period: 'month', assignee: { type: 'user', id: '2' } })) result.current.set(k)(v);
    });
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toMatchObject({ measure: 'csat_avg', target: 4.5 });
  });
});
