import { isSettingsPath } from './paths';

describe('isSettingsPath', () => {
  it('matches the three settings routes of SPEC §2 and nothing else', () => {
    for (const p of ['/setting', '/setting/site', '/setting/system', '/user-setting/profile']) expect(isSettingsPath(p)).toBe(true);
    for (const p of ['/settings', '/setting/', '/setting/site/x', '/user-setting', '/dashboard']) expect(isSettingsPath(p)).toBe(false);
  });
});
