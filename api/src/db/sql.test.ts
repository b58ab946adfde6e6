import { iso, likePattern } from './sql';

describe('sql helpers', () => {
  it('likePattern keeps % _ and \\ literal', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
  it('iso answers UTC ISO 8601 from a Date or a database string', () => {
    expect(iso(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02T03:04:05.000Z');
    expect(iso('2026-01-02 10:04:05+07')).toBe('2026-01-02T03:04:05.000Z');
  });
});
