import { callFailureOf, CALL_FAILURE_MESSAGES } from './call-failures';
import { groupMailbox, isMailboxName, parseGroupMailbox, parseSpyNumber, spyNumber, SPY_KEYS } from './spy';

describe('a supervisor\'s feature codes (ADR 0042)', () => {
  it('*222 / *223 / *224 + an extension name the mode and the agent; anything else is an ordinary number', () => {
    expect(parseSpyNumber('*222102')).toEqual({ mode: 'listen', extension: '102' });
    expect(parseSpyNumber('*223102')).toEqual({ mode: 'whisper', extension: '102' });
    expect(parseSpyNumber('*2241234')).toEqual({ mode: 'barge', extension: '1234' });
    for (const n of ['*225102', '*2221', '222102', '*222102#', '*97', '0912345678']) expect(parseSpyNumber(n)).toBeNull();
    expect(spyNumber('whisper', '105')).toBe('*223105');
    expect(SPY_KEYS).toEqual({ '4': 'listen', '5': 'whisper', '6': 'barge' });
  });

  it('the causes Kamailio sends back become sentences naming the agent', () => {
    expect(callFailureOf({ status: 403, cause: 'spy_forbidden' })).toBe('spy_forbidden');
    expect(callFailureOf({ status: 404, cause: 'spy_no_call' })).toBe('spy_no_call');
    expect(CALL_FAILURE_MESSAGES.spy_forbidden('*224102')).toBe('Bạn không có quyền nghe, nhắc hoặc tham gia cuộc gọi của máy nhánh 102');
    expect(CALL_FAILURE_MESSAGES.spy_no_call('*222102')).toBe(
      'Máy nhánh 102 không có cuộc gọi nào có thể giám sát (chỉ giám sát được cuộc gọi qua hàng đợi, IVR, cuộc gọi được ghi âm, hoặc mọi cuộc gọi khi bật “Cho phép giám sát mọi cuộc gọi” trong cài đặt hệ thống)',
    );
  });

  it('a mailbox is an extension\'s or a ring group\'s (group-<id>), read in one place', () => {
    expect(parseGroupMailbox(groupMailbox(3))).toBe(3);
    expect(parseGroupMailbox('group-123456789')).toBe(123456789);
    for (const n of ['101', 'group-', 'group-0', 'group-01', 'group-1234567890', 'group-3x', ' group-3']) expect(parseGroupMailbox(n)).toBeNull();
    for (const n of ['10', '101', '123456', 'group-7']) expect(isMailboxName(n)).toBe(true);
    for (const n of ['1', '1234567', 'group-0', 'grp-7', '']) expect(isMailboxName(n)).toBe(false);
  });
});
