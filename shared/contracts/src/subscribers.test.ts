import * as v from 'valibot';
import { CallHistoryInputSchema, sipDomain, SubscriberInputSchema, SUBSCRIBER_MSG, tenantOfSipDomain } from './subscribers';
import { MSG } from './messages';

describe('SIP domains', () => {
  it('maps a tenant to its domain and back, and nothing else', () => {
    expect(sipDomain('demo')).toBe('demo.tongdai.local');
    expect(tenantOfSipDomain('demo.tongdai.local')).toBe('demo');
    expect(tenantOfSipDomain('tongdai.local')).toBeNull();
    expect(tenantOfSipDomain('.tongdai.local')).toBeNull();
    expect(tenantOfSipDomain('a.demo.tongdai.local')).toBeNull();
    expect(tenantOfSipDomain('demo.example.com')).toBeNull();
  });
});

describe('subscriber form', () => {
  const issues = (input: unknown) => {
    const r = v.safeParse(SubscriberInputSchema, input);
    return r.success ? [] : r.issues.map((i) => [v.getDotPath(i), i.message]);
  };
  it('takes 2 to 6 digits and a name; the account is optional ("" = none)', () => {
    expect(v.parse(SubscriberInputSchema, { extension: ' 101 ', display_name: 'Lễ tân', user_id: '' })).toEqual({ extension: '101', display_name: 'Lễ tân', user_id: null });
    expect(v.parse(SubscriberInputSchema, { extension: '123456', display_name: 'x', user_id: '7' }).user_id).toBe(7);
  });
  it('says what is wrong in Vietnamese', () => {
    expect(issues({ extension: '1', display_name: 'x' })).toEqual([['extension', SUBSCRIBER_MSG.extensionFormat]]);
    expect(issues({ extension: '1234567', display_name: 'x' })).toEqual([['extension', SUBSCRIBER_MSG.extensionFormat]]);
    expect(issues({ extension: '', display_name: ' ' })).toEqual([
      ['extension', MSG.required],
      ['display_name', MSG.required],
    ]);
  });
});

describe('call log entry', () => {
  it('accepts dialled numbers and defaults to outgoing', () => {
    expect(v.parse(CallHistoryInputSchema, { phone: '0912345678' })).toEqual({ phone: '0912345678', direction: 'outgoing' });
    expect(v.parse(CallHistoryInputSchema, { phone: '+84912345678', direction: 'incoming' }).direction).toBe('incoming');
    expect(v.safeParse(CallHistoryInputSchema, { phone: '09 12' }).success).toBe(false);
  });
});
