import { createSocket } from 'node:dgram';
import { expect, test } from '../support/fixtures.ts';
import { registerContact } from '@tongdai/testkit/register-contact';
import { DEMO } from '../pages/LoginPage.ts';
import { SipPasswordDialog, SubscriberListPage } from '../pages/SubscriberPages.ts';
import { kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { API_PORT } from '../support/ports.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';
import { sipPorts } from '../../scripts/lib/stack.mjs';
import { openScreen } from '../support/navigate.ts';

test.use({ launchOptions: PHONE_LAUNCH });

const { udpPort } = sipPorts(API_PORT);
const DOMAIN = 'demo.tongdai.local';

/** A free UDP port for the contact a REGISTER binds (nothing answers there: only the binding matters). */
async function freePort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

// Issue 15's /voices/subscribers on a real Kamailio: the admin's browser phone (101) and a desk
// phone registered over UDP show as registered; a reset password shows once, the old one no
// longer registers and the new one does.
test('voice subscribers: live registration from Kamailio; a reset password shows once and the old one stops registering', async ({ browser, request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // fails, never skips
  const api = await tenantApiAs(request, DEMO);
  const extension = String(6200 + Math.floor(Math.random() * 799));
  const created = (await api.create('subscribers', { extension, display_name: 'Điện thoại bàn lễ tân' })) as { password: string };
  const contactPort = await freePort();
  const register = (password: string, expires = 120) => registerContact({ proxyPort: udpPort, user: extension, domain: DOMAIN, password, contactPort, expires });
  expect(await register(created.password)).toBe(200);

  const a = await phoneOf(DEMO); // 101 in the browser
  const page = a.page;
  try {
    await a.phone.expectReady();
    await openScreen(page, '/voices/subscribers');
    const list = new SubscriberListPage(page);
    await expect(page.getByTestId('voice-subscriber-list')).toBeVisible();
    const row101 = list.row('101');
    await expect(row101.getByTestId('voice-domain')).toHaveText(DOMAIN);
    await expect(row101.getByTestId('voice-user')).toHaveText('Quản trị viên');
    await expect(row101.getByTestId('voice-registration')).toHaveText('Đang đăng ký');
    // The device: the browser phone's User-Agent, as Kamailio saw it in the REGISTER.
    await expect(row101.getByTestId('voice-agent')).toHaveText(/^JsSIP \d+\.\d+/);
    await list.search(extension);
    const desk = list.row(extension);
    await expect(desk.getByTestId('voice-registration')).toHaveText('Đang đăng ký');
    await expect(desk.getByTestId('voice-user')).toHaveText('—');
    // This desk phone sends no User-Agent: registered, device unknown.
    await expect(desk.getByTestId('voice-agent')).toHaveText('Không rõ');

    // Only the offline ones: the desk phone is not among them.
    await list.search('');
    await page.getByTestId('registration-filter').selectOption('offline');
    await expect(page).toHaveURL(/registration=offline/);
    await expect(list.rows().first()).toBeVisible();
    await expect(list.row(extension)).toHaveCount(0);
    await expect(list.row('101')).toHaveCount(0);
    await page.getByTestId('registration-filter').selectOption('');
    await list.search(extension);
    await page.screenshot({ path: '../.tmp/screens/voice-subscribers.png', fullPage: true });

    // Reset: confirm, the new password once (copyable), then gone from the page.
    await desk.getByTestId('reset-password').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText(`Mật khẩu cũ của máy nhánh ${extension} sẽ ngừng hoạt động ngay`);
    await page.getByTestId('confirm').click();
    const dialog = new SipPasswordDialog(page);
    const fresh = await dialog.password();
    expect(fresh).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(fresh).not.toBe(created.password);
    await expect(page.getByTestId('sip-username')).toHaveValue(extension);
    await expect(page.getByTestId('sip-domain')).toHaveValue(DOMAIN);
    await expect(page.getByTestId('copy-password')).toBeVisible();
    await page.screenshot({ path: '../.tmp/screens/voice-subscribers-reset.png' });
    await dialog.close();
    await expect(page.getByText(fresh)).toHaveCount(0);

    // Kamailio checks the new password at once: the old one is refused, the new one binds.
    expect(await register(created.password)).not.toBe(200);
    expect(await register(fresh)).toBe(200);

    // Unregistered (expires 0): the screen says offline once reloaded.
    expect(await register(fresh, 0)).toBe(200);
    await page.reload();
    await expect(list.row(extension).getByTestId('voice-registration')).toHaveText('Ngoại tuyến');
    await page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(page)).toBeLessThan(DARK_MAX);
    await page.screenshot({ path: '../.tmp/screens/voice-subscribers-dark.png', fullPage: true });
  } finally {
    await a.page.context().close();
  }
});
