import { formatViDate as viDate, viWeekday } from '@tongdai/ui';
import { isBlankRange } from './timeRange';

describe('holiday days on the time group screen', () => {
  it('shows a day as dd/MM/yyyy with its Vietnamese weekday', () => {
    expect(viDate('2027-02-06')).toBe('06/02/2027');
    expect(viWeekday('2027-02-06')).toBe('Thứ Bảy'); // mùng 1 Tết Đinh Mùi
    expect(viWeekday('2027-02-07')).toBe('Chủ Nhật');
    expect(viWeekday('2026-02-17')).toBe('Thứ Ba'); // mùng 1 Tết Bính Ngọ
  });

  it('a range with every part empty is blank (a holidays-only group sends none)', () => {
    const blank = { time_start: '', time_end: '', dow_start: null, dow_end: null, dom_start: null, dom_end: null, month_start: null, month_end: null };
    expect(isBlankRange(blank)).toBe(true);
    expect(isBlankRange({ ...blank, dow_start: 6 })).toBe(false);
  });
});
