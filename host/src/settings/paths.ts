/** The host's own settings routes (SPEC §2): /setting, /setting/:slug, /user-setting/:slug. */
export const SETTINGS_ROUTES = ['/setting', '/setting/:slug', '/user-setting/:slug'];

export function isSettingsPath(pathname: string): boolean {
  return pathname === '/setting' || /^\/(setting|user-setting)\/[^/]+$/.test(pathname);
}

export const settingPath = (slug: string) => `/setting/${slug}`;
export const userSettingPath = (slug: string) => `/user-setting/${slug}`;
