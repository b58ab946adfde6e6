import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO } from '../pages/LoginPage.ts';
import { OtpListPage, OtpNumberPage } from '../pages/VoiceOtpPages.ts';
import { API_URL } from '../support/ports.ts';
import { tenantApiAs } from '../support/tenant-api.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `../.tmp/screens/${name}.png`, fullPage: true });
const suffix = Date.now().toString(36).slice(-5);
const digits7 = () => String(Math.floor(1_000_000 + Math.random() * 8_999_999));
/** A landline hotline of this run (028…), shown as the API answers it, and the callee's mobile. */
const HOTLINE = `0287${digits7()}`;
const PHONE = `091${digits7()}`;
const KEY = `Ứng dụng ngân hàng ${suffix}`;

// Issue 35 slice 1: the admin enables a hotline for OTP and creates an API key on /voice-otp/number (the
// key shown once); an application starts a verification with it and checks the code; /voice-otp/list shows it.
test('voice-OTP: a key made on /voice-otp/number starts a verification as an app would; the list shows it, then approved', async ({ page, request }) => {
  const api = await tenantApiAs(request, DEMO);
  const board = await api.create('etelecom/switchboards', { name: `Tổng đài OTP ${suffix}`, carrier: 'vnpt', host: '192.0.2.35', register: false });
  await api.create('etelecom/hotlines', { number: HOTLINE, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });

  const numbers = new OtpNumberPage(page);
  await numbers.goto(DEMO);
  await expect(page.getByTestId('otp-numbers')).toContainText('Hotline được bật sẽ dùng để gọi đọc mã OTP cho khách hàng.');
  await numbers.enable(HOTLINE);
  await expect(page.getByTestId('toast-success')).toContainText(`Đã bật gọi OTP cho ${HOTLINE}`);

  const secret = await numbers.createKey(KEY);
  expect(secret).toMatch(/^tdo\.demo\.\d+\.[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('otp-key-once')).toContainText('Chỉ hiển thị một lần');
  await shot(page, 'voice-otp-key-once-light');
  await numbers.closeKeyDialog();
  // The list shows the key by its prefix only, never used yet.
  const row = numbers.row(KEY);
  await expect(row.getByTestId('key-last-used')).toHaveText('Chưa dùng');
  await expect(row.getByTestId('key-state')).toHaveText('Đang dùng');
  await expect(page.getByTestId('otp-key-list')).not.toContainText(secret.split('.')[3]);

  // The application: starts with the key (a user's token would be refused), then checks the code its user typed.
  const app = { Authorization: `Bearer ${secret}` };
  const started = await request.post(`${API_URL}/otp/v1/verifications`, { headers: app, data: { phone: PHONE, code: '246810' } });
  expect(started.status(), await started.text()).toBe(201);
  const { id, status } = (await started.json()) as { id: string; status: string };
  expect(status).toBe('queued');

  const list = new OtpListPage(page);
  await list.goto();
  await page.getByTestId('otp-key-filter').selectOption({ label: KEY });
  await expect(page).toHaveURL(/key_id=\d+/);
  const listed = list.rowOfPhone(PHONE);
  await expect(listed.getByTestId('otp-key')).toHaveText(KEY);
  await expect(listed.getByTestId('otp-status')).toHaveText('Đang chờ gọi');
  await expect(listed.getByTestId('otp-checks')).toHaveText('0');
  // Searched by the number as people type it.
  await list.search(`+84${PHONE.slice(1)}`);
  await expect(list.rows()).toHaveCount(1);
  await expect(listed).toBeVisible();

  const wrong = await request.post(`${API_URL}/otp/v1/verifications/${id}/check`, { headers: app, data: { code: '111111' } });
  expect(await wrong.json()).toEqual({ status: 'wrong_code' });
  const right = await request.post(`${API_URL}/otp/v1/verifications/${id}/check`, { headers: app, data: { code: '246810' } });
  expect(await right.json()).toEqual({ status: 'approved' });

  await page.reload();
  await expect(listed.getByTestId('otp-status')).toHaveText('Đã xác thực');
  await expect(listed.getByTestId('otp-checks')).toHaveText('2');
  await page.getByTestId('otp-status-filter').selectOption('approved');
  await expect(listed).toBeVisible();
  for (const mode of ['light', 'dark'] as const) {
    if (mode === 'dark') {
      await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
      await page.reload();
      await expect(listed.getByTestId('otp-status')).toHaveText('Đã xác thực');
    }
    await shot(page, `voice-otp-list-${mode}`);
    await numbers.goto();
    await expect(numbers.row(KEY).getByTestId('key-last-used')).not.toHaveText('Chưa dùng');
    await shot(page, `voice-otp-number-${mode}`);
    await list.goto();
  }

  // Revoked on the screen: the application is refused at once.
  await numbers.goto();
  await numbers.row(KEY).getByTestId('revoke-key').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(`Thu hồi khoá "${KEY}"?`);
  await page.getByTestId('confirm').click();
  await expect(numbers.row(KEY).getByTestId('key-state')).toContainText('Đã thu hồi');
  const after = await request.get(`${API_URL}/otp/v1/verifications/${id}`, { headers: app });
  expect(after.status()).toBe(401);
});
