import type { Page } from '@playwright/test';

/**
 * Relative luminance (WCAG, 0 black … 1 white) of the background a user sees behind the main
 * area: the first opaque background from <main> up to <html>, white if none is painted.
 */
export function backgroundLuminance(page: Page): Promise<number> {
  return page.locator('main').evaluate((el) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const m = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(getComputedStyle(e).backgroundColor);
      if (!m || m[4] === '0') continue;
      const lin = (c: string) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
    }
    return 1;
  });
}

/** Light theme: a light background; dark theme: a dark one. */
export const LIGHT_MIN = 0.7;
export const DARK_MAX = 0.1;
