import { execFileSync } from 'node:child_process';
import { expect, test, type Browser, type Page } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { phoneOf as sharedPhoneOf } from '../support/phones.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.ts';
import { freezeSipServer, restartSipServer } from '../support/control.ts';
import { toast } from '../pages/PbxMediaPages.ts';
import { API_URL } from '../support/ports.ts';
import { createAgentWithExtension } from '../support/tenant-api.ts';
import { openScreen } from '../support/navigate.ts';

// Fake microphone and camera, permission prompts answered: only for the browsers of this spec.
test.use({ launchOptions: { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] } });

// Each test opens its own browsers, and a Kamailio restarted or frozen is the worker's own stack's:
// both workers share this file's 12 tests (issue 31: it ran last, 3.5 min on one worker while the
// other had nothing left).
test.describe.configure({ mode: 'parallel' });

const ABC_AGENT = { maDn: 'abc', username: 'nhanvien', password: 'Nhanvien@123' };

function kamailioInstalled(): boolean {
  try { execFileSync('sh', ['-c', 'command -v kamailio || test -x /usr/sbin/kamailio'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** One browser context per user agent (FIELD-NOTES): each its own session and phone, at 1280 × 720 unless given. */
function phoneOf(who: { maDn: string; username: string; password: string }, viewport = { width: 1280, height: 720 }) {
  return sharedPhoneOf(who, { viewport });
}

/** 101 and 102 each in a browser, both ready; 101 dials 102 and 102 rings. Both pages close if that fails. */
async function ringing102(browser: Browser): Promise<[Awaited<ReturnType<typeof phoneOf>>, Awaited<ReturnType<typeof phoneOf>>]> {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  const [a, b] = await Promise.all([phoneOf(DEMO), phoneOf(DEMO_AGENT)]);
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    return [a, b];
  } catch (e) {
    await Promise.all([a, b].map((p) => p.page.context().close()));
    throw e;
  }
}

test('a user without an extension: the phone stays not created and says so', async ({ page }) => {
  await new LoginPage(page).loginAs(ABC_AGENT);
  const phone = new SoftphonePage(page);
  await phone.expectState('CALL_NOT_CREATED', 'Chưa cấu hình máy nhánh');
  await expect(page.getByTestId('softphone-dialpad-toggle')).toHaveCount(0);
});

test('101 calls 102 through Kamailio: ring, answer, connected on both, the call survives navigation, hang-up', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed (sudo apt-get install kamailio kamailio-websocket-modules kamailio-utils-modules)').toBe(true); // a missing package fails the test, never skips it
  const a = await phoneOf(DEMO); // extension 101
  const b = await phoneOf(DEMO_AGENT); // extension 102
  try {
    await a.phone.expectReady();
    await b.phone.expectReady();

    await a.page.getByTestId('softphone-dialpad-toggle').click();
    await a.page.getByTestId('softphone-number').fill('102');
    await expect(a.page.getByTestId('softphone-call')).toBeEnabled();
    await a.page.screenshot({ path: '../.tmp/screens/softphone-dialpad.png', animations: 'disabled' });
    await a.phone.watchStates();
    await a.page.getByTestId('softphone-call').click();
    await expect(b.phone.incoming()).toBeVisible();
    await expect(b.phone.incoming()).toContainText('Cuộc gọi đến');
    await b.page.screenshot({ path: '../.tmp/screens/softphone-incoming.png' });
    await expect(b.page.getByTestId('softphone-caller')).toHaveText('101');
    await b.phone.expectState('CALL_INCOMING', 'Cuộc gọi đến');
    // While 102 rings (its 180 has reached 101), the caller's badge says "Đang gọi" (docs/adr/0008);
    // "Cuộc gọi đi" was the moment the INVITE left.
    await a.phone.expectState('CALL_PROCESS', 'Đang gọi');
    expect(await a.phone.statesSeen()).toEqual(['CALL_CONNECTING', 'CALL_OUT', 'CALL_PROCESS']);

    await b.phone.answer();
    await expect(b.phone.incoming()).toHaveCount(0);
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await expect(b.phone.badge()).toHaveText('Đã kết nối');
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_ACCEPTED');
    await expect(b.phone.timer()).toHaveText(/^\d\d:\d\d$/);
    await expect(b.phone.timer()).not.toHaveText('00:00');
    // Audio flows: each side's RTCPeerConnection is connected.
    await expect(a.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(b.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await a.page.screenshot({ path: '../.tmp/screens/softphone-in-call.png' });
    await b.page.getByTestId('dark-mode').click();
    await b.page.screenshot({ path: '../.tmp/screens/softphone-in-call-dark.png' });

    // The softphone is a persistent application: the same node, the same call, on another screen.
    await b.page.evaluate(() => { (document.querySelector('[data-testid="softphone"]') as HTMLElement).dataset.marker = 'same-node'; });
    await b.page.getByTestId('nav-customer').click();
    await expect(b.page.getByTestId('customer-list')).toBeVisible();
    await expect(b.phone.badge()).toHaveAttribute('data-marker', 'same-node');
    await expect(b.phone.badge()).toHaveText('Đã kết nối');
    // The caller (an admin) goes through five screens of three remotes: same phone, same call.
    await a.page.evaluate(() => { (document.querySelector('[data-testid="softphone"]') as HTMLElement).dataset.marker = 'same-node'; });
    for (const [nav, screen] of [['customer', 'customer-list'], ['roles', 'role-list'], ['subscribers', 'subscriber-list'], ['inbounds', 'inbound-list'], ['ringgroup', 'ringgroup-list']]) {
      await a.page.getByTestId(`nav-${nav}`).click();
      await expect(a.page.getByTestId(screen)).toBeVisible();
      await expect(a.phone.badge()).toHaveAttribute('data-marker', 'same-node');
      await expect(a.phone.badge()).toHaveText('Đã kết nối');
    }

    await a.phone.hangup();
    // SPEC §4: an outgoing call that ends becomes failed; an incoming one ended.
    await a.phone.expectState('CALL_FAILED');
    await b.phone.expectState('CALL_ENDED');
    await expect(b.phone.badge()).toHaveText('Cuộc gọi đã kết thúc');
    await a.phone.expectReady();
    await b.phone.expectReady();

    // The call is in the caller's recent calls (GET /histories-call reads the call records).
    const token = await a.page.evaluate(() => localStorage.getItem('tongdai.token'));
    await expect.poll(async () => {
      const history = await a.page.request.get(`${API_URL}/t/demo/histories-call`, { headers: { Authorization: `Bearer ${token}` } });
      return (await history.json()).data[0];
    }).toMatchObject({ direction: 'outgoing', number: '102', result: 'answered' });
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});

test('activity status 3 stops the phone; another status starts it again', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  const b = await phoneOf(DEMO_AGENT);
  try {
    await b.phone.expectReady();
    const setStatus = async (value: 1 | 3) => {
      await openScreen(b.page, '/user-setting/status');
      await b.page.getByTestId(`status-${value}`).click();
      await b.page.getByTestId('save').click();
    };
    await setStatus(3);
    await b.phone.expectState('CALL_OFFLINE', 'Ngừng nhận cuộc gọi');
    await expect(b.phone.badge()).toHaveAttribute('data-registered', 'false');
    await setStatus(1);
    await b.phone.expectReady();
  } finally {
    await b.page.context().close();
  }
});

test('a wrong SIP password: the phone says it could not register', async ({ page }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  // The account as the API gives it, with the password spoiled on its way to the phone.
  await page.route('**/t/demo/sip-account', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { data: { ...body.data, password_telecom: 'sai-mat-khau' } } });
  });
  await new LoginPage(page).loginAs(DEMO_AGENT);
  const phone = new SoftphonePage(page);
  await phone.expectState('CALL_FAILED_REGISTER_TO_SERVER', 'Không đăng ký được với tổng đài');
  await expect(phone.badge()).toHaveAttribute('data-registered', 'false');
});

test('three phones: a third caller hears busy (486), hold and resume on both sides, blind transfer, the customer card', async ({ browser, request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(90_000);
  // The seed has two extensions: the third agent is created the way an admin would, through the API.
  const agent = await createAgentWithExtension(request, DEMO);
  const [a, b, c] = await Promise.all([phoneOf(DEMO), phoneOf(DEMO_AGENT), phoneOf(agent)]);
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady(), c.phone.expectReady()]);
    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    // SPEC §4 caller popup on progress: 101 is a colleague's extension, not a new customer
    // (a carrier caller's "Khách hàng mới" card is in pbx-calls.spec).
    await expect(b.page.getByTestId('softphone-caller-name')).toHaveText('Quản trị viên');
    await expect(b.phone.colleagueCard()).toContainText('Máy nhánh 101');
    await expect(b.phone.colleagueCard()).toContainText('Quản trị viên');
    await expect(b.phone.customerCard()).toHaveCount(0);
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await expect(b.phone.badge()).toHaveText('Đã kết nối');

    // A third caller while 102 talks: 102 answers 486, the caller's phone says busy, the call goes on.
    await c.phone.dial('102');
    await c.phone.expectState('CALL_FAILED', 'Máy bận');
    await expect(b.phone.incoming()).toHaveCount(0);
    await expect(b.phone.badge()).toHaveText('Đã kết nối');
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_ACCEPTED');

    // Hold is not a SPEC state: both badges stay connected, each side says who holds.
    await b.phone.toggleHold();
    await expect(b.phone.holdIndicator()).toHaveText('Đang giữ máy');
    await expect(a.phone.holdIndicator()).toHaveText('Bên kia đang giữ máy');
    await expect(b.phone.badge()).toHaveAttribute('data-hold', 'local');
    await expect(a.phone.badge()).toHaveAttribute('data-hold', 'remote');
    await expect(b.phone.badge()).toHaveText('Đã kết nối');
    await expect(b.page.getByTestId('softphone-hold-toggle')).toHaveAccessibleName('Tiếp tục');
    await b.page.screenshot({ path: '../.tmp/screens/softphone-on-hold.png' });
    await b.phone.toggleHold();
    await expect(b.phone.holdIndicator()).toHaveCount(0);
    await expect(a.phone.holdIndicator()).toHaveCount(0);
    await expect(b.page.getByTestId('softphone-hold-toggle')).toHaveAccessibleName('Giữ máy');

    // Blind transfer: 102 hands 101 over to the third agent and leaves the call.
    await b.phone.transfer(agent.extension);
    await expect(b.phone.badge()).toHaveText('Đã chuyển cuộc gọi');
    await expect(c.phone.incoming()).toBeVisible();
    await expect(c.page.getByTestId('softphone-caller')).toHaveText('101');
    await c.phone.answer();
    await expect(c.phone.badge()).toHaveText('Đã kết nối');
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await expect(a.page.getByTestId('softphone-remote')).toHaveText(agent.extension);
    await expect(c.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await c.phone.hangup();
    await a.phone.expectState('CALL_FAILED');
    await c.phone.expectState('CALL_ENDED');

    // The card stays after the call until the agent closes it.
    await expect(b.phone.colleagueCard()).toContainText('Máy nhánh 101');
    await b.page.getByTestId('softphone-customer-close').click();
    await expect(b.phone.colleagueCard()).toHaveCount(0);
  } finally {
    await Promise.all([a, b, c].map((p) => p.page.context().close()));
  }
});

test('102 declines a call from 101: a normal end on 102 ("Đã từ chối cuộc gọi"), busy on 101; each sees the other as a colleague', async ({ browser }) => {
  const [a, b] = await ringing102(browser);
  try {
    await expect(a.phone.colleagueCard()).toContainText('Nhân viên tổng đài');
    await expect(a.phone.customerCard()).toHaveCount(0);
    await b.phone.watchStates();
    await b.phone.reject();
    await expect(b.phone.incoming()).toHaveCount(0);
    await b.phone.expectState('CALL_ENDED', 'Đã từ chối cuộc gọi');
    expect(await b.phone.statesSeen()).toEqual(['CALL_ENDED']);
    await a.phone.expectState('CALL_FAILED', 'Máy bận');
    await b.phone.expectReady();
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

test('102\'s browser goes mid-call without a BYE: its WebSocket closing ends the call, 101 sees it end and 102 can be called again', async ({ browser }) => {
  const [a, b] = await ringing102(browser);
  let b2: Awaited<ReturnType<typeof phoneOf>> | undefined;
  try {
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_ACCEPTED');
    // 102's browser goes: no BYE (the softphone has no unload handler), its WebSocket closes.
    await b.page.context().close();
    // Kamailio ends the call (event_route[websocket:closed]): a BYE to 101 within seconds, not 12 h.
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_FAILED', { timeout: 15_000 });
    await a.phone.expectReady();
    // 102 is not left busy: logged in again, a new call rings it.
    b2 = await phoneOf(DEMO_AGENT);
    await b2.phone.expectReady();
    await a.phone.dial('102');
    await expect(b2.phone.incoming()).toBeVisible();
    await a.phone.hangup();
    await expect(b2.phone.incoming()).toHaveCount(0);
  } finally {
    await Promise.all([a, b, ...(b2 ? [b2] : [])].map((p) => p.page.context().close()));
  }
});

test('102\'s browser goes while it rings: 101 is not kept ringing for 102\'s ring time, the call fails within seconds', async ({ browser }) => {
  const [a, b] = await ringing102(browser);
  try {
    // 102's tab closes during the ring: no answer, no unregister from the softphone, its WebSocket closes.
    await b.page.context().close();
    // Kamailio answers 102's fork 480 on its behalf once it sees the socket close (1–2 s, ADR 0067):
    // 102 has no other phone and no mailbox, so 101's call fails then, not after 102's ring time (20 s).
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_FAILED', { timeout: 8_000 });
    await a.phone.expectReady();
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

test('101\'s browser goes while its call rings: Kamailio cancels the call, 102 stops ringing before its ring time is up', async ({ browser }) => {
  const [a, b] = await ringing102(browser);
  try {
    // 101's tab closes during the ring: no CANCEL from the softphone, its WebSocket closes.
    await a.page.context().close();
    // Kamailio cancels the call (event_route[websocket:closed], tm.cancel) once it sees the socket
    // close (1–2 s after the tab, ADR 0067): 102 stops ringing then, not after its ring time (20 s)
    // and a failover to voicemail for a caller who is gone.
    await expect(b.phone.incoming()).toHaveCount(0, { timeout: 12_000 });
    // For 102 the caller gave up: a missed call, said so for a moment.
    await expect(b.phone.badge()).toHaveText('Cuộc gọi nhỡ');
    await b.phone.expectReady();
    await expect(b.phone.badge()).not.toHaveAttribute('data-call-state', 'CALL_INCOMING');
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

test('microphone and speaker: chosen in the softphone, kept after a reload, used by the next call', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  // 101 in the full Chromium: the headless shell gives a device a new id on every page load.
  const [a, b] = await Promise.all([sharedPhoneOf(DEMO, { viewport: { width: 1280, height: 720 }, fullBrowser: true }), phoneOf(DEMO_AGENT)]);
  try {
    // Which microphone each getUserMedia of the page really opened (Chromium's fake devices).
    await a.page.addInitScript(() => {
      const w = window as unknown as { micsOpened: string[] };
      w.micsOpened = [];
      const media = navigator.mediaDevices;
      const open = media.getUserMedia.bind(media);
      media.getUserMedia = async (c) => { const s = await open(c); w.micsOpened.push(s.getAudioTracks()[0]?.getSettings().deviceId ?? ''); return s; };
    });
    await a.page.reload();
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    const mic = a.page.getByTestId('softphone-microphone');
    const speaker = a.page.getByTestId('softphone-speaker');
    await a.page.getByTestId('softphone-devices-toggle').click();
    await expect(a.page.getByTestId('softphone-devices')).toContainText('Micro');
    await expect(a.page.getByTestId('softphone-devices')).toContainText('Loa');
    await expect(mic).toHaveValue('');
    await expect(mic.locator('option').first()).toHaveText('Mặc định của hệ thống');
    // The last device of each list (never the browser's default): a real choice.
    await expect.poll(() => mic.locator('option').count()).toBeGreaterThan(1);
    await expect.poll(() => speaker.locator('option').count()).toBeGreaterThan(1);
    const micId = await mic.locator('option').last().getAttribute('value');
    const speakerId = await speaker.locator('option').last().getAttribute('value');
    await mic.selectOption(micId!);
    await speaker.selectOption(speakerId!);
    await a.page.screenshot({ path: '../.tmp/screens/softphone-devices.png' });
    const sinkId = () => a.page.locator('#softphone-audio').evaluate((el) => (el as HTMLAudioElement & { sinkId: string }).sinkId);
    await expect.poll(sinkId).toBe(speakerId);

    await a.page.reload();
    await a.phone.expectReady();
    await expect.poll(sinkId).toBe(speakerId);
    await a.page.getByTestId('softphone-devices-toggle').click();
    await expect(mic).toHaveValue(micId!);
    await expect(speaker).toHaveValue(speakerId!);
    await a.page.keyboard.press('Escape');

    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    expect(await a.page.evaluate(() => (window as unknown as { micsOpened: string[] }).micsOpened)).toEqual([micId]);
    await expect.poll(sinkId).toBe(speakerId);
    await a.phone.hangup();
    await a.phone.expectState('CALL_FAILED');
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

/**
 * The top bar as laid out: its height, the texts in it that run over more than one line, how far
 * its content overflows it, what sticks out of the window, and what cuts its own content short
 * without saying so ("…" is said).
 */
const topBarLayout = (page: Page) => page.locator('header').first().evaluate((header) => {
  const wrapped: string[] = [];
  const walker = document.createTreeWalker(header, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent?.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) wrapped.push(node.textContent);
  }
  const outside = [header, ...header.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).map((el) => el.textContent ?? el.tagName);
  const cut = [...header.querySelectorAll('*')].filter((el) => {
    const css = getComputedStyle(el);
    return css.overflowX !== 'visible' && css.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1;
  }).map((el) => el.textContent ?? el.tagName);
  return { height: header.getBoundingClientRect().height, wrapped, overflow: header.scrollWidth - header.clientWidth, outside, cut };
});

test('at 1440 × 900 the top bar stays on one line during a call, on hold, with every call control shown', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  const size = { width: 1440, height: 900 };
  const [a, b] = await Promise.all([phoneOf(DEMO, size), phoneOf(DEMO_AGENT, size)]);
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await b.phone.toggleHold();
    await expect(a.phone.holdIndicator()).toHaveText('Bên kia đang giữ máy');
    await expect(b.phone.holdIndicator()).toHaveText('Đang giữ máy');
    for (const [who, p] of [['caller', a], ['callee', b]] as const) {
      await expect(p.page.getByTestId('softphone-transfer')).toBeVisible();
      await p.page.screenshot({ path: `../.tmp/screens/top-bar-in-call-1440-${who}.png` });
      // Once settled: a badge appearing in it (the missed call of an earlier test) was measured mid-way
      // once at load 13 (ci3 of the twenty-third session: "1" cut); a bar that stays wrong still fails.
      await expect.poll(() => topBarLayout(p.page)).toEqual({ height: 56, wrapped: [], overflow: 0, outside: [], cut: [] });
    }
    await b.phone.hangup();
    await a.phone.expectState('CALL_FAILED');
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

test('Kamailio restarts: both phones register again by themselves and a new call goes through', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  const [a, b] = await Promise.all([phoneOf(DEMO), phoneOf(DEMO_AGENT)]);
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // Every value data-registered takes from now on, so a quick drop and return is not missed.
    const watch = (page: Page) => page.evaluate(() => {
      const badge = document.querySelector('[data-testid="softphone"]') as HTMLElement;
      const seen: string[] = [];
      (window as unknown as { registeredSeen: string[] }).registeredSeen = seen;
      new MutationObserver(() => seen.push(badge.dataset.registered ?? '')).observe(badge, { attributes: true, attributeFilter: ['data-registered'] });
    });
    await Promise.all([watch(a.page), watch(b.page)]);
    await restartSipServer();
    for (const p of [a, b]) {
      await p.phone.expectReady();
      expect(await p.page.evaluate(() => (window as unknown as { registeredSeen: string[] }).registeredSeen)).toEqual(['false', 'true']);
    }
    // The restarted Kamailio knows 102 only because it registered again.
    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await expect(b.phone.badge()).toHaveText('Đã kết nối');
    await b.phone.hangup();
    await a.phone.expectState('CALL_FAILED');
  } finally {
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});

test('Kamailio hangs: a call placed meanwhile says the server is unreachable, not a bare failure; once it is back a call goes through', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  // JsSIP gives up on an unanswered INVITE after Timer B (64 × T1 = 32 s).
  test.setTimeout(150_000);
  const [a, b] = await Promise.all([phoneOf(DEMO), phoneOf(DEMO_AGENT)]);
  let frozen = false;
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // Hung, not gone: the phone's socket stays open and it still shows itself registered, so the
    // agent can dial; nothing answers.
    await freezeSipServer((frozen = true));
    // A number that rings nobody: the INVITE Kamailio reads once it is back must not ring 102.
    await a.phone.dial('199');
    await a.phone.expectState('CALL_OUT');
    await expect(a.phone.badge()).toHaveAttribute('data-call-state', 'CALL_FAILED', { timeout: 60_000 });
    await expect(a.phone.badge()).toHaveText('Mất kết nối tổng đài');
    await expect(toast(a.page, 'error', 'Không kết nối được tổng đài, vui lòng thử lại')).toBeVisible();
    await expect(a.phone.badge()).not.toHaveText('Cuộc gọi thất bại');
    await a.page.screenshot({ path: '../.tmp/screens/softphone-failed-unreachable.png' });

    await freezeSipServer((frozen = false));
    const thawed = Date.now();
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // Kamailio counts time in ticks, which stood still while it was stopped; it sets them to the wall clock
    // once every 5 s of ticks (TIMER_RESYNC_TICKS, its core/timer.c), jumping them the ~35 s ahead, and a
    // transaction begun before the jump has its timers fire at once: the first call after the thaw was
    // answered 408 within 270 ms, 102 rang and was cancelled (ci4 of the thirty-fifth session; stop 46).
    // Any hung Kamailio that comes back does the same; the call is placed once its clock has caught up.
    await a.page.waitForTimeout(Math.max(0, thawed + 6_000 - Date.now()));
    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await b.phone.hangup();
  } catch (e) {
    // Failed once in CI under load (stop 46: 102's incoming call gone before "Trả lời" was clicked):
    // each phone's SIP timeline says who ended it.
    for (const [name, p] of [['101', a], ['102', b]] as const) console.log(`SIP of ${name}:\n${p.sipTrace.join('\n')}`);
    throw e;
  } finally {
    if (frozen) await freezeSipServer(false);
    await Promise.all([a, b].map((p) => p.page.context().close()));
  }
});
