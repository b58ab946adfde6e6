import { callViaLabel, callViaOf, formatCallVia, parseCallVia } from './call-via';

describe('which hotline and group a ringing call came through (X-Tongdai-Via)', () => {
  it('a plan step names the hotline in national form and the group or queue ringing', () => {
    expect(callViaOf('842873001234', { type: 'group', name: 'Kinh doanh' })).toEqual({ hotline: '02873001234', group: 'Kinh doanh' });
    expect(callViaOf('02873001234', { type: 'queue', name: 'CSKH' })).toEqual({ hotline: '02873001234', queue: 'CSKH' });
    // A direct call of a colleague: nothing to say.
    expect(callViaOf(null, { type: 'direct', name: '102 - Trần Thị B' })).toEqual({});
  });
  it('the header carries any name intact, and nothing a SIP message could choke on', () => {
    const via = { hotline: '02873001234', group: 'Chăm sóc; khách hàng = "VIP"\r\nX-Evil: 1' };
    const header = formatCallVia(via);
    expect(header).toMatch(/^[A-Za-z0-9=;%._~!*'()-]+$/);
    expect(parseCallVia(header)).toEqual(via);
    expect(formatCallVia({})).toBe('');
  });
  it('reads what it can of a bad header and ignores unknown keys', () => {
    expect(parseCallVia(undefined)).toBeUndefined();
    expect(parseCallVia('')).toBeUndefined();
    expect(parseCallVia('who=me;x')).toBeUndefined();
    expect(parseCallVia('hotline=02873001234;group=%E0%A4%A')).toEqual({ hotline: '02873001234' });
  });
  it('the popup line: "Qua hotline 02873001234 · Nhóm Kinh doanh"', () => {
    expect(callViaLabel({ hotline: '02873001234', group: 'Kinh doanh' })).toBe('Qua hotline 02873001234 · Nhóm Kinh doanh');
    expect(callViaLabel({ hotline: '02873001234', queue: 'CSKH' })).toBe('Qua hotline 02873001234 · Hàng đợi CSKH');
    expect(callViaLabel({ group: 'Kinh doanh' })).toBe('Nhóm Kinh doanh');
    expect(callViaLabel(undefined)).toBe('');
  });
});
