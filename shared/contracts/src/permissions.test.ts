import { canAssignRole, hasPermission, isFeatureEnabled, isExpired } from './permissions';

describe('hasPermission (SPEC §6)', () => {
  const agent = { name: 'agent', permissions: [{ name: 'customer.view' }] };
  it('lets super-admin do anything', () => {
    expect(hasPermission({ name: 'super-admin', permissions: [] }, 'role.delete')).toBe(true);
  });
  it('lets anyone through "general", even without a session', () => {
    expect(hasPermission(null, 'general')).toBe(true);
    expect(hasPermission(agent, 'general')).toBe(true);
  });
  it('checks the permission names otherwise', () => {
    expect(hasPermission(agent, 'customer.view')).toBe(true);
    expect(hasPermission(agent, 'customer.delete')).toBe(false);
    expect(hasPermission(null, 'customer.view')).toBe(false);
  });
  it('does not treat a role merely named like a permission as one', () => {
    expect(hasPermission({ name: 'customer.delete', permissions: [] }, 'customer.delete')).toBe(false);
  });
});

describe('isFeatureEnabled (payment check)', () => {
  const now = new Date('2026-11-22T10:00:00+07:00');
  it('needs the feature to be purchased', () => {
    expect(isFeatureEnabled({ feature_name_data: ['customer'], date_expired: '2027-01-01' }, 'popupcustomer', now)).toBe(false);
    expect(isFeatureEnabled({ feature_name_data: ['popupcustomer'], date_expired: '2027-01-01' }, 'popupcustomer', now)).toBe(true);
  });
  it('refuses after the expiry day, accepts on it', () => {
    expect(isFeatureEnabled({ feature_name_data: ['customer'], date_expired: '2026-11-21' }, 'customer', now)).toBe(false);
    expect(isFeatureEnabled({ feature_name_data: ['customer'], date_expired: '2026-11-22' }, 'customer', now)).toBe(true);
  });
  it('a screen without a feature needs none; no payment check means nothing purchased', () => {
    expect(isFeatureEnabled(null, undefined, now)).toBe(true);
    expect(isFeatureEnabled(null, 'customer', now)).toBe(false);
  });
  it('treats a malformed date as expired', () => {
    expect(isExpired('not-a-date', now)).toBe(true);
    expect(isExpired(null, now)).toBe(false);
  });
});

describe('canAssignRole (ADR 0018)', () => {
  const role = (name: string, ...perms: string[]) => ({ name, permissions: perms.map((p) => ({ name: p })) });
  const editor = { name: 'quan-ly', permissions: [{ name: 'account.view' }, { name: 'account.edit' }] };
  it('offers super-admin to super-admins only', () => {
    expect(canAssignRole({ name: 'super-admin', permissions: [] }, role('super-admin'))).toBe(true);
    expect(canAssignRole(editor, role('super-admin'))).toBe(false);
  });
  it('offers a role only when the user holds all of its permissions', () => {
    expect(canAssignRole(editor, role('xem', 'account.view'))).toBe(true);
    expect(canAssignRole(editor, role('nhan-vien', 'account.view', 'customer.view'))).toBe(false);
    expect(canAssignRole(null, role('xem'))).toBe(false);
  });
});
