import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { MonitorPage } from '../pages/MonitorPages.ts';
import { TOUR_THEMES } from '../support/fixtures.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { shot } from '../support/screens.ts';

// Issue 34: "live progress … on /monitor (calls dialing, answered, abandoned rate so far, agents free/talking),
// through the existing real-time channel". A progressive campaign started through the API is a tile on the
// admin's wall with its figures and its hotline's calls-per-minute cap; paused and ended through the API, the
// open wall follows by itself (the tenant's channel), with no reload.
test('the dialer on /monitor: a running progressive campaign is a tile with its figures; paused, then ended, the open wall follows (issue 34)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const suffix = String(Date.now()).slice(-5);
  const NAME = `Gọi tự động trên màn hình giám sát ${suffix}`;
  const api = await tenantApiAs(request, DEMO);
  const options = await api.get('marketing-campaigns/options');
  const admin = (options.agents as { id: number; name: string }[]).find((a) => /Quản trị viên/.test(a.name))!;
  const hotline = (options.hotlines as { id: number; number: string }[])[0];
  const made = await api.create('marketing-campaigns', { name: NAME, purpose: 'care', mode: 'progressive', script: 'Chào anh/chị {{name}}.', agent_ids: [admin.id], hotline_id: hotline.id });
  try {
    // One contact (nobody is ready on the campaign, so nobody is called).
    const csv = `Họ tên,Số điện thoại\nChị Lan,0912${suffix.slice(1)}77\n`;
    expect(await api.upload(`marketing-campaigns/${made.id}/contacts/file`, { name: 'lien-he.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }, { commit: '1' })).toMatchObject({ imported: 1 });
    await api.post(`marketing-campaigns/${made.id}/state`, { to: 'running' });
    await new LoginPage(page).loginAs(DEMO);
    const wall = new MonitorPage(page);
    await wall.open();
    const tile = page.getByTestId('campaign-tile').filter({ hasText: NAME });
    await expect(page.getByTestId('monitor-campaigns').getByRole('heading', { name: 'Chiến dịch gọi tự động' })).toBeVisible();
    await expect(tile.getByTestId('campaign-mode')).toHaveText('Tiến dần');
    for (const [id, value] of [['calling', '0'], ['talking', '0'], ['ready', '0'], ['answered', '0'], ['abandoned', '0% (0)']] as const) {
      await expect(tile.getByTestId(`campaign-${id}`)).toHaveText(value);
    }
    await expect(tile).toHaveAttribute('data-tone', 'green');
    for (const mode of TOUR_THEMES) {
      if (mode === 'dark') {
        await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
        await page.reload();
        await expect(tile).toBeVisible();
      }
      await page.screenshot(shot(`monitor-dialer-${mode}`, { still: true }));
    }
    // Paused elsewhere (the API, as another supervisor would): the tile says so without a reload.
    await api.post(`marketing-campaigns/${made.id}/state`, { to: 'paused' });
    await expect(tile.getByTestId('campaign-paused')).toHaveText('Tạm dừng');
    await expect(tile).toHaveAttribute('data-tone', 'offline');
    // Ended: off the wall.
    await api.post(`marketing-campaigns/${made.id}/state`, { to: 'ended' });
    await expect(tile).toHaveCount(0);
  } finally {
    await api.post(`marketing-campaigns/${made.id}/state`, { to: 'ended' }).catch(() => undefined);
    await page.evaluate(() => localStorage.removeItem('tongdai.dark_mode')).catch(() => undefined);
  }
});
