import { render, screen } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import type { ActivityTimeline } from '@tongdai/contracts';
import { Timeline, windowOf } from './Timeline';

const at = (local: string) => new Date(`${local}+07:00`).toISOString();
const DAY = '2026-02-10';
const dayStart = Date.parse(at(`${DAY}T00:00:00`));
const data: ActivityTimeline = {
  user_id: 1, full_name: 'Nhân viên tổng đài', day: DAY,
  sessions: [{ from: at(`${DAY}T08:03:00`), to: at(`${DAY}T11:58:00`), end: 'logout' }],
  statuses: [{ from: at(`${DAY}T08:03:00`), to: at(`${DAY}T09:00:00`), status: 1 }, { from: at(`${DAY}T09:00:00`), to: at(`${DAY}T11:58:00`), status: 3 }],
  registered: [{ from: at(`${DAY}T08:04:00`), to: at(`${DAY}T09:00:00`), extension: '102' }],
  events: [{ at: at(`${DAY}T08:03:00`), kind: 'login', status: 1, extension: null, reason: '' }, { at: at(`${DAY}T11:58:00`), kind: 'logout', status: null, extension: null, reason: '' }],
};

describe('activity timeline', () => {
  it('draws the minutes around what happened, whole day when nothing did', () => {
    expect(windowOf(data, dayStart)).toEqual({ lo: 8 * 3_600_000, hi: 12 * 3_600_000, step: 30 * 60_000 });
    expect(windowOf({ ...data, sessions: [], statuses: [], registered: [], events: [] }, dayStart)).toMatchObject({ lo: 0, hi: 86_400_000 });
  });

  it('places each period on its lane with its times in Vietnamese', () => {
    render(<FluentProvider theme={webLightTheme}><Timeline data={data} /></FluentProvider>);
    expect(screen.getByTestId('activity-timeline').textContent).toContain('Dòng thời gian: Nhân viên tổng đài, 10/02/2026');
    const stopped = screen.getByTestId('timeline-status-3');
    expect(stopped.getAttribute('title')).toBe('Ngừng nhận cuộc gọi: 09:00:00 – 11:58:00');
    expect(stopped.style.left).toBe('25%');
    expect(screen.getByTestId('timeline-login').getAttribute('title')).toBe('Đăng nhập 08:03:00');
    expect(screen.getByTestId('timeline-registration').getAttribute('title')).toBe('102: 08:04:00 – 09:00:00');
  });
});
