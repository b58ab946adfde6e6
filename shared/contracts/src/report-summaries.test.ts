import { callHistoryHref, formatRate } from './report-summaries';

describe('report summaries helpers', () => {
  it('links a summary row to /call-history with its range and row filter, leaving out what is empty', () => {
    expect(callHistoryHref({ range: 'last7', extension: '102' })).toBe('/call-history?range=last7&extension=102');
    expect(callHistoryHref({ range: '2026-03-01~2026-03-09', department_id: 3, team_id: null })).toBe('/call-history?range=2026-03-01~2026-03-09&department_id=3');
    expect(callHistoryHref({ range: '', extension: '101' })).toBe('/call-history?extension=101');
    expect(callHistoryHref({})).toBe('/call-history');
  });

  it('shows an answer rate as a Vietnamese percentage', () => {
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.5)).toBe('50%');
    expect(formatRate(1 / 3)).toBe('33,3%');
    expect(formatRate(1)).toBe('100%');
  });
});
