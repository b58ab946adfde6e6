import { fireEvent, screen } from '@testing-library/react';
import { presetRange } from '@tongdai/contracts';
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
});
