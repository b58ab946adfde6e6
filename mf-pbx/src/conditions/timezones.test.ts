import { describeOverride, formatUntil, timezoneOptions, utcOffset } from './timezones';

describe('time condition override and time zones', () => {
  it('a temporary override says until when, in the condition\'s zone', () => {
    expect(formatUntil('2026-11-22T10:30:00Z', 'Asia/Ho_Chi_Minh')).toBe('đến 17:30 22/11/2026');
    expect(describeOverride({ override: 'temp_unmatched', override_until: '2026-11-22T10:30:00Z', timezone: 'Asia/Ho_Chi_Minh' }))
      .toBe('Tạm thời: ngoài giờ đến 17:30 22/11/2026');
    expect(describeOverride({ override: 'temp_matched', override_until: '2026-11-23T01:00:00Z', timezone: 'Asia/Tokyo' }))
      .toBe('Tạm thời: trong giờ đến 10:00 23/11/2026');
  });

  it('no end known (no change within 400 days), permanent and none read as their labels', () => {
    expect(describeOverride({ override: 'temp_matched', override_until: null, timezone: 'Asia/Ho_Chi_Minh' }))
      .toBe('Tạm thời: trong giờ (đến lần chuyển trạng thái kế tiếp)');
    expect(describeOverride({ override: 'perm_unmatched', override_until: null, timezone: 'Asia/Ho_Chi_Minh' })).toBe('Luôn ngoài giờ');
    expect(describeOverride({ override: 'none', override_until: '2026-11-22T10:30:00Z', timezone: 'Asia/Ho_Chi_Minh' })).toBe('Theo lịch');
  });

  it('zones: Vietnam first (the default) with its offset; a saved zone outside the list is kept', () => {
    expect(utcOffset('Asia/Ho_Chi_Minh')).toBe('UTC+07:00');
    expect(utcOffset('UTC')).toBe('UTC+00:00');
    expect(timezoneOptions()[0]).toEqual({ value: 'Asia/Ho_Chi_Minh', label: 'Việt Nam — Asia/Ho_Chi_Minh (UTC+07:00)' });
    expect(timezoneOptions('Africa/Nairobi')[0]).toEqual({ value: 'Africa/Nairobi', label: 'Africa/Nairobi (UTC+03:00)' });
    expect(timezoneOptions('Asia/Tokyo').filter((o) => o.value === 'Asia/Tokyo')).toHaveLength(1);
  });
});
