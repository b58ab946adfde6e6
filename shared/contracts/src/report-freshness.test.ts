import { lagWords, reportLagWarning } from './report-freshness';

describe('the reports lag warning (issue 42)', () => {
  it('says nothing on the primary, on a fallback, or within 5 seconds', () => {
    expect(reportLagWarning(null)).toBeNull();
    expect(reportLagWarning({})).toBeNull();
    expect(reportLagWarning({ source: 'primary', lag_seconds: 0 })).toBeNull();
    expect(reportLagWarning({ source: 'fallback', lag_seconds: 0 })).toBeNull();
    expect(reportLagWarning({ source: 'replica', lag_seconds: 0 })).toBeNull();
    expect(reportLagWarning({ source: 'replica', lag_seconds: 5 })).toBeNull();
  });

  it('says how far behind, in Vietnamese, past 5 seconds', () => {
    expect(reportLagWarning({ source: 'replica', lag_seconds: 12 })).toBe('Số liệu báo cáo đang chậm khoảng 12 giây so với hệ thống.');
    expect(reportLagWarning({ source: 'replica', lag_seconds: 6 })).toBe('Số liệu báo cáo đang chậm khoảng 6 giây so với hệ thống.');
  });

  it('counts seconds, then minutes, then hours', () => {
    expect(lagWords(89.4)).toBe('89 giây');
    expect(lagWords(90)).toBe('2 phút');
    expect(lagWords(600)).toBe('10 phút');
    expect(lagWords(89 * 60)).toBe('89 phút');
    expect(lagWords(90 * 60)).toBe('2 giờ');
    expect(lagWords(5 * 3600)).toBe('5 giờ');
  });
});
