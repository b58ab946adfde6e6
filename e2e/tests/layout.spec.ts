import { expect, test, type Locator } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';

test.use({ viewport: { width: 1440, height: 900 } });

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** The whole Fluent Field (label, control, hint, message) around a control. */
const fieldOf = (control: Locator) => control.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " fui-Field ")][1]');

test('/conditions/add at 1440×900: the override and time-zone fields and their help texts do not overlap', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO, '/conditions/add');
  const override = fieldOf(page.getByTestId('field-override'));
  const timezone = fieldOf(page.getByTestId('field-timezone'));
  await expect(override).toContainText('Tạm thời');
  await expect(timezone).toContainText('Nhóm thời gian được tính theo giờ');
  await page.screenshot({ path: '../.tmp/screens/conditions-add-1440.png', fullPage: true });
  const boxes = await Promise.all([override, timezone].map(async (f) => (await f.boundingBox())!));
  expect(overlap(boxes[0], boxes[1])).toBe(false);
  const hints = await Promise.all([override, timezone].map(async (f) => (await f.locator('.fui-Field__hint').boundingBox())!));
  expect(overlap(hints[0], hints[1])).toBe(false);
  // Each hint stays inside its own field.
  for (const [field, hint] of [[boxes[0], hints[0]], [boxes[1], hints[1]]]) {
    expect(hint.x + hint.width).toBeLessThanOrEqual(field.x + field.width + 1);
  }
});
