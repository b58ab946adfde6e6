import { STORAGE_KEYS } from '@tongdai/contracts';
import { session } from './session';
import { storage } from './storage';
import { theme } from './theme';
import { can, featureEnabled } from './access';

const user = { name: 'nhan-vien', permissions: [{ name: 'customer.view' }] };

describe('session', () => {
  beforeEach(() => { localStorage.clear(); session.clear(); });

  it('keeps token, ma_dn and user under the stable keys', () => {
    session.start({ token: 't1', maDn: 'demo', user, profile: { fullName: 'An', username: 'an', tenantName: 'Demo' }, payment: null });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t1');
    expect(localStorage.getItem(STORAGE_KEYS.maDn)).toBe('demo');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user)!)).toEqual(user);
    expect(session.isLoggedIn()).toBe(true);
  });

  it('clear empties local storage but keeps display preferences', () => {
    theme.setDark(true);
    session.start({ token: 't1', maDn: 'demo', user, profile: null, payment: null });
    localStorage.setItem('something.else', 'x');
    session.clear();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem('something.else')).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.darkMode)).toBe('1');
    expect(session.isLoggedIn()).toBe(false);
  });

  it('clear keeps the dark-mode choice and nothing else (SPEC §8, docs/adr/0004)', () => {
    theme.setDark(true);
    session.start({ token: 't1', maDn: 'demo', user, profile: { fullName: 'An', username: 'an', tenantName: 'Demo' }, payment: null });
    for (const key of ['tongdai.settings', 'tongdai.system_setting', 'tongdai.softphone.devices']) localStorage.setItem(key, '{}');
    storage.clearSession();
    expect(Object.keys(localStorage)).toEqual([STORAGE_KEYS.darkMode]);
  });

  it('checks permissions and purchased features against the live session', () => {
    session.start({ token: 't', maDn: 'demo', user, profile: null, payment: { feature_name_data: ['customer'], date_expired: '2999-12-31' } });
    expect(can('customer.view')).toBe(true);
    expect(can('customer.delete')).toBe(false);
    expect(can(undefined)).toBe(true);
    expect(featureEnabled('customer')).toBe(true);
    expect(featureEnabled('survey')).toBe(false);
    session.setPayment({ feature_name_data: ['customer'], date_expired: '2000-01-01' });
    expect(featureEnabled('customer')).toBe(false);
  });
});
