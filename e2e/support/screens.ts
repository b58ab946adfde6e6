import type { Page } from '@playwright/test';

/**
 * Where a spec photographs a screen for a developer to look at (STYLE.md "look at your screens"):
 * `../.tmp/screens/<name>.png`, the whole page. npm test does not take these (support/fixtures.ts,
 * E2E_SCREENSHOTS=0). `still`: animations stopped for the picture (a call under way spins as long as it lasts).
 */
export const shot = (name: string, o: { still?: boolean } = {}) =>
  ({ path: `../.tmp/screens/${name}.png`, fullPage: true, ...(o.still && { animations: 'disabled' as const }) });

/** Until no animation of the page runs (a dialog fades in, a row's detail opens): the screenshot after it is of the settled screen. */
export const stillness = (page: Page) => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
