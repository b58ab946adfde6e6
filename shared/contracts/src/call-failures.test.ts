import { CALL_FAILURES, CALL_FAILURE_LABELS, CALL_FAILURE_MESSAGES, callFailureOf } from './call-failures';

describe('call failures', () => {
  it('the plan\'s cause (X-Tongdai-Cause) says why, whatever the status', () => {
    expect(callFailureOf({ status: 503, cause: 'trunk_not_configured' })).toBe('trunk_not_configured');
    expect(callFailureOf({ status: 403, cause: 'international' })).toBe('not_allowed');
    expect(callFailureOf({ status: 403, cause: 'blocked_out' })).toBe('not_allowed');
    expect(callFailureOf({ status: 404, cause: 'no_route' })).toBe('no_route');
    expect(callFailureOf({ status: 404, cause: 'unknown_extension' })).toBe('unknown_extension');
    expect(callFailureOf({ status: 480, cause: 'offline' })).toBe('extension_offline');
    expect(callFailureOf({ status: 486, cause: 'busy' })).toBe('busy');
    // Carrier trunks (issue 15): a full switchboard or tenant is not "unreachable" (plain 503).
    expect(callFailureOf({ status: 503, cause: 'channel_limit' })).toBe('channel_limit');
    expect(callFailureOf({ status: 503, cause: 'tenant_channel_limit' })).toBe('tenant_channel_limit');
    expect(callFailureOf({ status: 503 })).toBe('unreachable');
  });
  it('without a cause, the status: busy, no answer, declined, not allowed, no route, server trouble', () => {
    expect([486, 600, 408, 480, 603, 403, 404, 484, 503, 500, 488].map((status) => callFailureOf({ status, cause: null }))).toEqual([
      'busy', 'busy', 'no_answer', 'no_answer', 'rejected', 'not_allowed', 'no_route', 'no_route', 'unreachable', 'unreachable', 'failed',
    ]);
    expect(callFailureOf({ status: 480, cause: 'something-new' })).toBe('no_answer');
  });
  it('no SIP answer at all: the server is unreachable', () => {
    expect(callFailureOf({})).toBe('unreachable');
  });
  it('every failure has a short label and a sentence naming the number', () => {
    for (const f of CALL_FAILURES) {
      expect(CALL_FAILURE_LABELS[f].length).toBeLessThanOrEqual(24);
      if (f !== 'unreachable') expect(CALL_FAILURE_MESSAGES[f]('0912345678')).toContain('0912345678');
    }
    expect(CALL_FAILURE_MESSAGES.trunk_not_configured('0912345678')).toBe(
      'Không gọi được số 0912345678: chưa cấu hình đường trung kế (SIP trunk) để gọi ra ngoài. Vui lòng liên hệ quản trị viên',
    );
  });
});
