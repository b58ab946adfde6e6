import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { API_URL } from '../support/ports.ts';

test.use({ launchOptions: PHONE_LAUNCH });

interface RecentCall { number: string; direction: string; result: string; missed: boolean; billsec: number }
const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

/** The newest of this user's recent calls as the API gives them (the e2e database is shared: compare, never count from zero). */
async function newestCall(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('tongdai.token'));
  const res = await page.request.get(`${API_URL}/t/demo/histories-call`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: RecentCall[] }).data[0];
}

test('recent calls in the softphone: the answered call with its talk time, a missed call with its badge, a click redials', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  const a = await phoneOf(DEMO); // extension 101
  const b = await phoneOf(DEMO_AGENT); // extension 102
  try {
    await a.phone.expectReady();
    await b.phone.expectReady();
    await expect(b.phone.missedBadge()).toHaveCount(0);

    // 101 → 102, answered, a second or more of talk, hung up.
    await dial(a.page, '102');
    await b.phone.answer();
    await expect(b.phone.timer()).not.toHaveText('00:00');
    await a.phone.hangup();
    await a.phone.expectReady();

    // 101's list: the newest row is that call, outgoing to 102, with the recorded talk time.
    await a.phone.openRecent();
    await expect.poll(async () => (await newestCall(a.page))?.number).toBe('102');
    const answered = await newestCall(a.page);
    expect(answered).toMatchObject({ direction: 'outgoing', result: 'answered', missed: false });
    expect(answered.billsec).toBeGreaterThan(0);
    const first = a.phone.recentRows().first();
    await expect(first).toHaveAttribute('data-direction', 'outgoing');
    await expect(first).toHaveAttribute('data-number', '102');
    await expect(first.getByTestId('softphone-recent-talk')).toHaveText(mmss(answered.billsec));
    await expect(first).toContainText('Gọi đi');
    await expect(first).toContainText('Trả lời');
    await a.page.screenshot({ path: '../.tmp/screens/softphone-recent.png', animations: 'disabled' });
    await a.page.getByTestId('dark-mode').click();
    await a.phone.openRecent();
    await a.page.screenshot({ path: '../.tmp/screens/softphone-recent-dark.png', animations: 'disabled' });
    await a.page.keyboard.press('Escape');

    // 101 → 102 again, 102 does not answer, 101 gives up: a missed call on 102's badge.
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await a.phone.hangup();
    await expect(b.phone.incoming()).toHaveCount(0);
    await expect(b.phone.missedBadge()).toHaveText('1');
    await b.page.screenshot({ path: '../.tmp/screens/softphone-recent-badge.png', animations: 'disabled' });

    // Opening the list clears the badge; the missed call is on top.
    await b.phone.openRecent();
    await expect(b.phone.missedBadge()).toHaveCount(0);
    const missed = b.phone.recentRows().first();
    await expect(missed).toHaveAttribute('data-missed', 'true');
    await expect(missed).toHaveAttribute('data-number', '101');
    await expect(missed).toContainText('Cuộc gọi nhỡ');
    await expect(missed).toContainText('Không trả lời');
    await expect(missed.getByTestId('softphone-recent-talk')).toHaveText('00:00');
    await b.page.screenshot({ path: '../.tmp/screens/softphone-recent-missed.png', animations: 'disabled' });

    // A click on the row redials 101.
    await missed.click();
    await expect(a.phone.incoming()).toBeVisible();
    await expect(a.page.getByTestId('softphone-caller')).toHaveText('102');
    await b.phone.hangup();
    await b.phone.expectReady();
    await a.phone.expectReady();
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});
