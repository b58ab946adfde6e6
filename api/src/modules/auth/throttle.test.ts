import { LoginThrottle } from './throttle';

describe('LoginThrottle', () => {
  const key = LoginThrottle.key('Demo', ' Admin ');
  it('keys accounts case-insensitively', () => {
    expect(key).toBe(LoginThrottle.key('demo', 'admin'));
  });
  it('blocks after the maximum failures within the window, then forgets them', () => {
    const t = new LoginThrottle(3, 1000);
    for (let i = 0; i < 3; i++) t.fail(key, 100 + i);
    expect(t.isBlocked(key, 200)).toBe(true);
    expect(t.isBlocked(key, 1101)).toBe(false);
  });
  it('a success clears the account', () => {
    const t = new LoginThrottle(2, 1000);
    t.fail(key, 1);
    t.succeed(key);
    t.fail(key, 2);
    expect(t.isBlocked(key, 3)).toBe(false);
  });
});
