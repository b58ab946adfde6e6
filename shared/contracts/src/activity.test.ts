import * as v from 'valibot';
import { activityCells, ActivityQuerySchema, formatHms, vnTime } from './activity';
import { CallReportQuerySchema, REPORT_MSG } from './reports';

describe('user activity contracts', () => {
  it('reads filters as call history does: days in order, at most a year, ids', () => {
    expect(v.parse(ActivityQuerySchema, { from: '2026-02-10', user_id: '7' })).toMatchObject({ from: '2026-02-10', user_id: 7, department_id: '', page: 1, per_page: 10 });
    const reversed = v.safeParse(ActivityQuerySchema, { from: '2026-02-11', to: '2026-02-10' });
    expect(reversed.success ? null : reversed.issues[0].message).toBe(REPORT_MSG.endBeforeStart);
    const long = v.safeParse(ActivityQuerySchema, { from: '2025-01-01', to: '2026-02-10' });
    expect(long.success ? null : long.issues[0].message).toBe(REPORT_MSG.rangeTooLong);
    // The shared range checks still hold for call history.
    expect(v.safeParse(CallReportQuerySchema, { from: '2026-02-11', to: '2026-02-10' }).success).toBe(false);
  });

  it('writes durations as h:mm:ss and times in Vietnam time', () => {
    expect(formatHms(0)).toBe('0:00:00');
    expect(formatHms(3725)).toBe('1:02:05');
    expect(vnTime('2026-02-10T16:00:00.000Z')).toBe('23:00:00');
    expect(vnTime(null)).toBe('');
    expect(activityCells({
      user_id: 1, full_name: 'Quản trị viên', username: 'admin', extension: '101', department: null, team: null, day: '2026-02-10',
      first_login: '2026-02-10T16:00:00.000Z', last_logout: null, registered_sec: 3600, status_sec: { 1: 1800, 2: 1800, 3: 0 }, status_changes: 1, calls_handled: 2,
    })).toEqual(['2026-02-10', 'Quản trị viên', '101', '', '', '23:00:00', '', '1:00:00', '0:30:00', '0:30:00', '0:00:00', '1', '2']);
  });
});
