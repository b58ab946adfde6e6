import { fireEvent, screen } from '@testing-library/react';
import { REPORT_MSG, presetRange } from '@tongdai/contracts';
import { dateRangeFilter, rangeDays } from './dateRangeFilter';
import { renderAt } from '../../test/entity-helpers';

describe('dateRangeFilter', () => {
  it('reads ?range= as days: a preset, two days of one’s own, and an empty value as today or as no bound', () => {
    expect(rangeDays('')).toEqual(presetRange('today'));
    expect(rangeDays('', 'all')).toEqual({});
    expect(rangeDays('last7', 'all')).toEqual(presetRange('last7'));
    expect(rangeDays('2026-11-01~2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
    expect(rangeDays('2026-11-01~')).toEqual({ from: '2026-11-01' });
  });

  it('offers "Tất cả thời gian" first when empty means all, and writes the choice as the list keeps it', () => {
    const seen: string[] = [];
    const { Control } = dateRangeFilter({ empty: 'all' });
    renderAt('/log', { '/log': <Control value="" onChange={(v) => seen.push(v)} /> });
    const select = screen.getByTestId('range-filter') as HTMLSelectElement;
    expect([select.value, select.options[0].text]).toEqual(['all', 'Tất cả thời gian']);
    fireEvent.change(select, { target: { value: 'today' } });
    fireEvent.change(select, { target: { value: 'all' } });
    expect(seen).toEqual(['today', '']);
  });

  it('tells a reversed range beside the fields and does not send it', () => {
    const seen: string[] = [];
    const { Control } = dateRangeFilter();
    renderAt('/report', { '/report': <Control value="2026-11-20~2026-11-25" onChange={(v) => seen.push(v)} /> });
    const from = screen.getByTestId('range-from') as HTMLInputElement;
    expect([from.value, (screen.getByTestId('range-to') as HTMLInputElement).value]).toEqual(['20/11/2026', '25/11/2026']);
    fireEvent.change(from, { target: { value: '26/11/2026' } });
    expect(seen).toEqual([]);
    expect(screen.getByTestId('range-error').textContent).toBe(REPORT_MSG.endBeforeStart);
    fireEvent.change(from, { target: { value: '25/11/2026' } });
    expect(seen).toEqual(['2026-11-25~2026-11-25']);
    expect(screen.queryByTestId('range-error')).toBeNull();
  });

  it('tells a reversed range that came in the URL too', () => {
    const { Control } = dateRangeFilter();
    renderAt('/report', { '/report': <Control value="2026-03-10~2026-03-09" onChange={() => undefined} /> });
    expect(screen.getByTestId('range-error').textContent).toBe(REPORT_MSG.endBeforeStart);
  });
});
