import { render, screen } from '@testing-library/react';
import type { Kpi, KpiProgress } from '@tongdai/contracts';
import { Progress, figure } from './kpis.entity';

/** A KPI row's actual against its target, in the measure's unit; CSAT scores with one decimal (issue 34). */
const progress = (over: Partial<KpiProgress> = {}): KpiProgress => ({
  period_from: '2026-05-01', period_to: '2026-05-31', actual: 4.2, percent: 93.3, elapsed: 0.5, status: 'behind', ...over,
});
const kpi = (over: Partial<Kpi> = {}): Kpi => ({
  id: 1, name: 'Hài lòng tháng 5', measure: 'csat_avg', target: 4.5, period: 'month', start_date: '2026-05-01',
  assignee: { type: 'user', id: 2 }, assignee_name: 'Nguyễn Văn An', progress: progress(), created_at: '', updated_at: '', ...over,
});

describe('KPI figures', () => {
  it('CSAT: "4,2 / 4,5 điểm", a whole score still with its decimal, "—" before any call was rated or the period began', () => {
    expect(figure(kpi(), progress())).toBe('4,2 / 4,5 điểm');
    expect(figure(kpi({ target: 4 }), progress({ actual: 5 }))).toBe('5,0 / 4,0 điểm');
    expect(figure(kpi(), progress({ actual: 0, status: 'no_calls' }))).toBe('— / 4,5 điểm');
    expect(figure(kpi(), progress({ actual: 0, status: 'not_started' }))).toBe('— / 4,5 điểm');
  });

  it('other measures as before: whole numbers bare, one decimal at most', () => {
    expect(figure(kpi({ measure: 'calls_made', target: 40 }), progress({ actual: 12 }))).toBe('12 / 40 cuộc');
    expect(figure(kpi({ measure: 'talk_time', target: 60 }), progress({ actual: 35.5 }))).toBe('35,5 / 60 phút');
    expect(figure(kpi({ measure: 'answer_rate', target: 90 }), progress({ actual: 0, status: 'no_calls' }))).toBe('0 / 90 %');
  });

  it('the row shows the CSAT actual against its target with the share reached', () => {
    render(<Progress kpi={kpi()} />);
    expect(screen.getByTestId('kpi-actual').textContent).toBe('4,2 / 4,5 điểm');
    expect(screen.getByTestId('kpi-progress').textContent).toBe('4,2 / 4,5 điểm (93,3%)');
  });
});
