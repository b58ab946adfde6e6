import * as v from 'valibot';
import { CallReportQuerySchema, presetRange, REPORT_MSG, resultReason, vnDay, vnDayStart } from './reports';

describe('Vietnam days (Asia/Ho_Chi_Minh, whatever the zone running this)', () => {
  // 17:30 UTC on 31 March is 00:30 on 1 April in Vietnam.
  const now = new Date('2026-03-31T17:30:00Z');
  it('names the day by Vietnam time and starts it at 00:00 +07:00', () => {
    expect(vnDay(now)).toBe('2026-04-01');
    expect(vnDayStart('2026-04-01')!.toISOString()).toBe('2026-03-31T17:00:00.000Z');
    expect(vnDayStart('2026-02-30')).toBeNull();
    expect(vnDayStart('01/04/2026')).toBeNull();
  });
  it('turns each preset into inclusive days', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(presetRange('yesterday', now)).toEqual({ from: '2026-03-31', to: '2026-03-31' });
    expect(presetRange('last7', now)).toEqual({ from: '2026-03-26', to: '2026-04-01' });
    expect(presetRange('thisMonth', now)).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(presetRange('lastMonth', now)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(presetRange('lastMonth', new Date('2026-01-15T03:00:00Z'))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('custom', now)).toBeNull();
  });
});

describe('CallReportQuerySchema', () => {
  const issues = (q: Record<string, string>) => {
    const r = v.safeParse(CallReportQuerySchema, q);
    return r.success ? [] : r.issues.map((i) => i.message);
  };
  it('accepts 366 days and refuses 367, and an end before the start', () => {
    expect(issues({ from: '2025-03-11', to: '2026-03-11' })).toEqual([]);
    expect(issues({ from: '2025-03-10', to: '2026-03-11' })).toEqual([REPORT_MSG.rangeTooLong]);
    expect(issues({ from: '2026-03-11', to: '2026-03-10' })).toEqual([REPORT_MSG.endBeforeStart]);
  });
});

describe('resultReason', () => {
  it("keeps the plan's words, else says what the SIP status means", () => {
    expect(resultReason('BLOCKED', 603, 'Số bị chặn')).toBe('Số bị chặn');
    expect(resultReason('ANSWERED', 200, '')).toBe('');
    expect(resultReason('BUSY', 486, '')).toBe('Bên nhận đang bận hoặc đã từ chối cuộc gọi');
    expect(resultReason('FAILED', 503, '')).toBe('Mất kết nối tổng đài (SIP 503)');
    expect(resultReason('NO ANSWER', 487, '')).toBe('Người gọi gác máy trước khi có người nghe');
  });
});
