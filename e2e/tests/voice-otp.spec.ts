import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { readSheet } from 'read-excel-file/node';
import { expect, test, type Page, TOUR_THEMES } from '../support/fixtures.ts';
import { DEMO } from '../pages/LoginPage.ts';
import { OtpListPage, OtpNumberPage } from '../pages/VoiceOtpPages.ts';
import { API_URL } from '../support/ports.ts';
import { pbxApiAs, tenantApiAs } from '../support/tenant-api.ts';
import { startTestCarrier } from '../support/carrier.ts';
import { kamailioInstalled } from '../support/phones.ts';
import { demoCarrierAvailable } from '../../scripts/lib/demo-carrier.mjs';

const shot = (page: Page, name: string) => page.screenshot({ path: `../.tmp/screens/${name}.png`, fullPage: true });
const suffix = Date.now().toString(36).slice(-5);
const digits7 = () => String(Math.floor(1_000_000 + Math.random() * 8_999_999));
/** A landline hotline of this run (028…), shown as the API answers it, and the callee's mobile. */
const HOTLINE = `0287${digits7()}`;
const PHONE = `091${digits7()}`;
const KEY = `Ứng dụng ngân hàng ${suffix}`;
const ACCOUNT = { user: `0287${digits7()}`, password: `NhaMang-${suffix}-OTP` };

// Issue 35's e2e: the admin enables a hotline for OTP and creates an API key on /voice-otp/number (the key
// shown once); an application starts a verification with it; the media worker calls the number through the
// hotline's switchboard — the demo carrier (ADR 0037) is the PSTN and the user's phone, which answers — and
// says the code; /voice-otp/list shows it read out; the app checks the code: approved.
test('voice-OTP: a key made on /voice-otp/number starts a verification as an app would; the carrier\'s phone is called and hears the code; the list shows it read, then approved', async ({ page, request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // fails, never skips
  expect(demoCarrierAvailable(), 'demo-carrier dependencies are not installed').toBe(true);
  test.setTimeout(180_000);
  const carrier = await startTestCarrier('voice-otp-e2e', ACCOUNT);
  // The application's webhook endpoint (loopback is a network the e2e stack lets tenants use, as for the carrier).
  const hooks: { signature: string; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hooks.push({ signature: String(req.headers['x-tongdai-signature'] ?? ''), body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/otp-events`;
  const api = await tenantApiAs(request, DEMO);
  const pbx = await pbxApiAs(request, DEMO);
  const boardInput = { name: `Tổng đài OTP ${suffix}`, host: '127.0.0.1', port: carrier.sipPort, auth_user: ACCOUNT.user, auth_password: ACCOUNT.password, max_channels: 2, register_interval: 60 };
  const board = await api.create('etelecom/switchboards', boardInput);
  const rule = await pbx.create('rule', { name: `Di động OTP ${suffix}`, pattern: '09XXXXXXXX', switchboard_ids: [board.id], caller_id_mode: 'carrier', priority: 0 });
  try {
    await expect.poll(async () => ((await api.get(`etelecom/switchboards/${board.id}`)) as { status: string }).status, { timeout: 40_000, message: 'the switchboard registered to the carrier' }).toBe('registered');
    await api.create('etelecom/hotlines', { number: HOTLINE, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });

    const numbers = new OtpNumberPage(page);
    await numbers.goto(DEMO);
    await expect(page.getByTestId('otp-numbers')).toContainText('Hotline được bật sẽ dùng để gọi đọc mã OTP cho khách hàng.');
    await numbers.enable(HOTLINE);
    await expect(page.getByTestId('toast-success')).toContainText(`Đã bật gọi OTP cho ${HOTLINE}`);

    const secret = await numbers.createKey(KEY, webhookUrl);
    expect(secret).toMatch(/^tdo\.demo\.\d+\.[A-Za-z0-9_-]{43}$/);
    const signing = await numbers.webhookSecret();
    expect(signing).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByTestId('otp-key-once')).toContainText('Chỉ hiển thị một lần');
    await shot(page, 'voice-otp-key-once-light');
    await numbers.closeKeyDialog();
    // The list shows the key by its prefix only, never used yet.
    const row = numbers.row(KEY);
    await expect(row.getByTestId('key-last-used')).toHaveText('Chưa dùng');
    await expect(row.getByTestId('key-webhook')).toHaveText('Chưa gửi');
    await expect(row.getByTestId('key-state')).toHaveText('Đang dùng');
    await expect(page.getByTestId('otp-key-list')).not.toContainText(secret.split('.')[3]);

    // The application: starts with the key (a user's token would be refused), then checks the code its user typed.
    const app = { Authorization: `Bearer ${secret}` };
    const started = await request.post(`${API_URL}/otp/v1/verifications`, { headers: app, data: { phone: PHONE, code: '2468' } });
    expect(started.status(), await started.text()).toBe(201);
    const { id, status } = (await started.json()) as { id: string; status: string };
    expect(status).toBe('queued');
    // As the app sees it: called within a second or so, answered by the phone, the code said twice, hung up.
    const read = async () => (await (await request.get(`${API_URL}/otp/v1/verifications/${id}`, { headers: app })).json()) as { status: string; timeline: { status: string }[] };
    await expect.poll(async () => (await read()).status, { timeout: 60_000, message: 'the code read out on the call' }).toBe('completed');
    expect((await read()).timeline.map((e) => e.status)).toEqual(['queued', 'calling', 'answered', 'completed']);
    // The phone: called from the hotline, and it heard the code (4 digits twice, about 21 s of audio: 50 packets a second).
    const heard = (await carrier.calls()).find((c) => c.direction === 'in' && c.called === PHONE);
    expect(heard, 'the carrier received the call to the phone').toBeTruthy();
    expect(heard!.caller_id).toBe(HOTLINE);
    expect(heard!.rtp_received).toBeGreaterThan(50 * 15);
    // The application's webhook heard each step, signed with the secret shown once.
    await expect.poll(() => hooks.map((h) => (JSON.parse(h.body) as { status: string }).status), { timeout: 15_000, message: 'the webhook got the call’s steps' })
      .toEqual(expect.arrayContaining(['queued', 'calling', 'answered', 'completed']));
    for (const h of hooks) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(h.signature) ?? [];
      expect(v1, 'a signature on every delivery').toBe(createHmac('sha256', signing).update(`${t}.${h.body}`).digest('hex'));
    }

    const list = new OtpListPage(page);
    await list.goto();
    await page.getByTestId('otp-key-filter').selectOption({ label: KEY });
    await expect(page).toHaveURL(/key_id=\d+/);
    // The key's calls over the last 30 days: the one placed was answered; the chart per day below it.
    await expect(page.getByTestId('otp-answered-rate')).toHaveText('Tỉ lệ nghe máy: 100% (1/1 cuộc gọi)');
    await expect(page.getByTestId('otp-stats').locator('svg').first()).toBeVisible();
    const listed = list.rowOfPhone(PHONE);
    await expect(listed.getByTestId('otp-key')).toHaveText(KEY);
    await expect(listed.getByTestId('otp-status')).toHaveText('Đã đọc mã');
    await expect(listed.getByTestId('otp-duration')).toHaveText(/^00:(1[5-9]|2\d|3\d)$/);
    await expect(listed.getByTestId('otp-checks')).toHaveText('0');
    // Searched by the number as people type it.
    await list.search(`+84${PHONE.slice(1)}`);
    await expect(list.rows()).toHaveCount(1);
    await expect(listed).toBeVisible();

    const wrong = await request.post(`${API_URL}/otp/v1/verifications/${id}/check`, { headers: app, data: { code: '1111' } });
    expect(await wrong.json()).toEqual({ status: 'wrong_code' });
    const right = await request.post(`${API_URL}/otp/v1/verifications/${id}/check`, { headers: app, data: { code: '2468' } });
    expect(await right.json()).toEqual({ status: 'approved' });

    await page.reload();
    await expect(listed.getByTestId('otp-status')).toHaveText('Đã xác thực');
    await expect(listed.getByTestId('otp-checks')).toHaveText('2');
    await page.getByTestId('otp-status-filter').selectOption('approved');
    await expect(listed).toBeVisible();
    // "Xuất Excel": the rows the filters select, in a file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('yeu-cau-otp.xlsx');
    const sheet = (await readSheet(readFileSync(await download.path()))).map((r) => r.map((c) => (c === null ? '' : String(c))));
    expect(sheet[0]).toEqual(['Thời gian', 'Số điện thoại', 'Khoá API', 'Trạng thái', 'Thời lượng gọi (giây)', 'Lần kiểm tra mã']);
    expect(sheet.slice(1).find((r) => r[1] === PHONE)).toEqual([expect.any(String), PHONE, KEY, 'Đã xác thực', expect.stringMatching(/^(1[5-9]|2\d|3\d)$/), '2']);
    for (const mode of TOUR_THEMES) {
      if (mode === 'dark') {
        await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
        await page.reload();
        await expect(listed.getByTestId('otp-status')).toHaveText('Đã xác thực');
      }
      await expect(page.getByTestId('otp-stats').locator('svg').first()).toBeVisible();
    await shot(page, `voice-otp-list-${mode}`);
      await numbers.goto();
      await expect(numbers.row(KEY).getByTestId('key-last-used')).not.toHaveText('Chưa dùng');
      await expect(numbers.row(KEY).getByTestId('key-webhook')).toHaveText('Đang nhận');
      await expect(numbers.numberRow(HOTLINE).getByTestId('otp-number-rate')).toHaveText('100% (1/1 cuộc)');
      await shot(page, `voice-otp-number-${mode}`);
      await list.goto();
    }

    // A new signing secret from the row: shown once, not the old one.
    await numbers.goto();
    await numbers.row(KEY).getByTestId('rotate-webhook-secret').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Khoá ký cũ ngừng có hiệu lực ngay');
    await page.getByTestId('confirm').click();
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
    const rotated = await numbers.webhookSecret();
    expect(rotated).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated).not.toBe(signing);
    await shot(page, 'voice-otp-webhook-secret-rotated');
    await numbers.closeKeyDialog();

    // Revoked on the screen: the application is refused at once.
    await numbers.goto();
    await numbers.row(KEY).getByTestId('revoke-key').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText(`Thu hồi khoá "${KEY}"?`);
    await page.getByTestId('confirm').click();
    await expect(numbers.row(KEY).getByTestId('key-state')).toContainText('Đã thu hồi');
    const after = await request.get(`${API_URL}/otp/v1/verifications/${id}`, { headers: app });
    expect(after.status()).toBe(401);

    // "Gọi thử" from the screen: a wrong number is refused under the field; a right one shows the code it
    // reads, the carrier's phone is called from the hotline, and the list says the code was read.
    const PHONE2 = `091${digits7()}`;
    await numbers.goto();
    await page.getByTestId('otp-test-phone').fill('12');
    await page.getByTestId('otp-test-start').click();
    await expect(page.getByTestId('otp-test-call')).toContainText('Số điện thoại không hợp lệ');
    await page.getByTestId('otp-test-phone').fill(PHONE2);
    await page.getByTestId('otp-test-start').click();
    await expect(page.getByTestId('toast-success')).toContainText(new RegExp(`Đang gọi thử tới ${PHONE2}: mã đọc trong cuộc gọi là \\d{6}`));
    await list.goto();
    const tested = list.rowOfPhone(PHONE2);
    await expect(tested.getByTestId('otp-key')).toHaveText('Gọi thử trên màn hình');
    // Answered by the carrier's phone (the code read to the end is the first call's proof above).
    await expect.poll(async () => {
      await page.reload();
      return tested.getByTestId('otp-status').textContent();
    }, { timeout: 30_000, message: 'the test call answered' }).toMatch(/^(Đã nghe máy|Đã đọc mã)$/);
    expect((await carrier.calls()).find((c) => c.direction === 'in' && c.called === PHONE2)?.caller_id).toBe(HOTLINE);
  } finally {
    // The switchboard off (it stops registering to the carrier stopped below), the rule gone.
    await pbx.remove('rule', rule.id).catch(() => undefined);
    await api.update(`etelecom/switchboards/${board.id}`, { ...boardInput, auth_password: '', enabled: false }).catch(() => undefined);
    await carrier.stop();
    await new Promise((r) => receiver.close(r));
  }
});
