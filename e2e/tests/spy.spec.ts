import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '../support/fixtures.ts';
import { Ear } from '@tongdai/testkit/rtp-ear';
import { listeningCallerScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { kamailioAvailable } from '../../scripts/lib/kamailio.mjs';
import { sipPorts } from '../../scripts/lib/stack.mjs';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { MonitorPage } from '../pages/MonitorPages.ts';
import { toast } from '../pages/PbxMediaPages.ts';
import type { SoftphonePage } from '../pages/SoftphonePage.ts';
import { dial, PHONE_LAUNCH, phoneOf, receivedAudio } from '../support/phones.ts';
import { API_PORT, CARRIER_PORT } from '../support/ports.ts';
import { pbxApiAs } from '../support/tenant-api.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';

/**
 * Issue 16 end to end: a carrier's caller (sipp, its ear and voice an RTP socket) reaches 102's
 * browser through a queue (so the media worker holds the call); the admin (101, every permission)
 * listens from /monitor, then presses 5 (whisper) and 6 (barge) on the softphone's keypad, then
 * barges in straight from the wall. Who hears whom is told apart by muting 102: Chromium's fake
 * microphone beeps in every browser, so with 102 muted and the caller silent a beep can only come
 * from the supervisor.
 */
test.use({ launchOptions: PHONE_LAUNCH });
test.describe.configure({ mode: 'serial' });

// Fresh on a retry too (a number and a queue name are unique per tenant).
const DID = `028730162${String(Math.floor(Math.random() * 90) + 10)}`;
const CALLER = '0903016201';
const { udpPort } = sipPorts(API_PORT);
const work = resolve('../.tmp/sipp-e2e-spy');
const shots = '../.tmp/screens';

type Phone = { page: Page; phone: SoftphonePage };
let admin: Phone;
let agent: Phone;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const setDark = (page: Page, dark: boolean) =>
  page.evaluate((d) => (window as unknown as { __tongdai_platform__: { darkMode: { next(v: boolean): void } } }).__tongdai_platform__.darkMode.next(d), dark);
const spyButton = (where: Locator, label: 'Nghe' | 'Nhắc' | 'Tham gia') => where.getByTestId('spy-buttons').getByRole('button', { name: label, exact: true });

/** Audio energy (Σ level² × s, WebRTC's totalAudioEnergy) a browser's call receives while `during` runs. */
async function energyDuring(page: Page, during: () => Promise<unknown>): Promise<number> {
  const before = await receivedAudio(page);
  await during();
  return (await receivedAudio(page)).energy - before.energy;
}

/** Packets the caller heard between two instants that carry sound (a beep, a voice), not silence. */
const loudPackets = (ear: Ear, from: number, to: number) => ear.packets.filter((p) => p.at >= from && p.at < to && p.rms > 1500).length;

/** Presses a key on the softphone's keypad during the call (sent as DTMF). */
async function press(page: Page, key: string) {
  if (!(await page.getByTestId('softphone-dialpad').isVisible())) await page.getByTestId('softphone-dialpad-toggle').click();
  await page.getByTestId(`softphone-key-${key}`).click();
  await page.keyboard.press('Escape'); // the pad closes; the call controls stay
}

test.beforeAll(async ({ browser, request }) => {
  expect(kamailioAvailable() && sippInstalled(), 'Kamailio or sipp is not installed (npm test installs them)').toBe(true); // fails, never skips
  mkdirSync(work, { recursive: true });
  mkdirSync(shots, { recursive: true });
  // A queue of 102 alone: the worker answers the caller and places 102's leg, so it can mix a supervisor in.
  const pbx = await pbxApiAs(request, DEMO);
  const queue = await pbx.create('queues', { name: `E2E giám sát nghe 102 (${DID.slice(-2)})`, agents: ['102'], strategy: 'linear', agent_timeout: 30, max_wait: 90 });
  await pbx.create('number', { number: DID });
  await pbx.create('inbound', { did: DID, destination: { type: 'queue', target: String(queue.id) } });
  admin = await phoneOf(DEMO, { watchMedia: true }); // 101, super-admin: holds monitor.spy
  agent = await phoneOf(DEMO_AGENT, { watchMedia: true }); // 102, staff: no monitor.spy
  await admin.phone.expectReady();
  await agent.phone.expectReady();
});

test.afterAll(async () => {
  await admin?.page.context().close();
  await agent?.page.context().close();
});

test('a spy code is refused with the reason: without monitor.spy, and when the agent has no call', async () => {
  await dial(agent.page, '*222101');
  await agent.phone.expectState('CALL_FAILED', 'Không có quyền giám sát');
  await expect(toast(agent.page, 'error', /^Bạn không có quyền nghe, nhắc hoặc tham gia cuộc gọi/)).toBeVisible();
  await agent.phone.expectReady();

  await dial(admin.page, '*222102'); // 102 is idle
  await admin.phone.expectState('CALL_FAILED', 'Không có cuộc gọi');
  await expect(toast(admin.page, 'error', /^Máy nhánh 102 không có cuộc gọi nào có thể giám sát/)).toBeVisible();
  await admin.phone.expectReady();
});

test('the supervisor listens from the wall, whispers (5) and barges (6) from the keypad, then barges from the wall; the agent sees no spy button', async () => {
  test.setTimeout(240_000);
  // Both walls open before the call: a page load would end the browser's call.
  const wall = new MonitorPage(admin.page);
  await wall.open();
  const own = new MonitorPage(agent.page);
  await own.open();
  const ear = await Ear.open();
  const call = runSipp({
    dir: work, name: 'spy-caller', xml: listeningCallerScenario({ keys: [], talkMs: 0, remoteHangsUp: true }),
    args: [`127.0.0.1:${udpPort}`, '-i', '127.0.0.1', '-p', String(CARRIER_PORT), '-s', DID, '-m', '1', '-l', '1'],
    keys: { caller: CALLER, at: new Date().toISOString(), rtp_port: String(ear.port) }, timeoutS: 200,
  });
  try {
    await expect(agent.phone.incoming()).toBeVisible({ timeout: 15_000 });
    await agent.phone.answer();
    await expect(agent.phone.badge()).toHaveAttribute('data-media-state', 'connected');

    // The wall: the call and 102 talking carry the three buttons, with the codes explained.
    const row = wall.calls().filter({ hasText: CALLER });
    await expect(row.getByTestId('call-state')).toHaveAttribute('data-state', 'talking');
    await expect(row.getByTestId('spy-buttons').getByRole('button')).toHaveText(['Nghe', 'Nhắc', 'Tham gia']);
    await expect(wall.agent('102').getByTestId('spy-buttons').getByRole('button')).toHaveText(['Nghe', 'Nhắc', 'Tham gia']);
    await expect(admin.page.getByTestId('spy-help')).toContainText('*222 + máy nhánh để nghe, *223 + máy nhánh để nhắc, *224 + máy nhánh để tham gia');
    await expect(admin.page.getByTestId('spy-help')).toContainText('bấm 4 để nghe, 5 để nhắc, 6 để tham gia');
    // Hovered again until the tooltip shows: the wall ticks every second, and at load 13 a hover made
    // while the row was drawn again showed no tooltip within 20 s (ci3 of the thirtieth session).
    await expect(async () => {
      await admin.page.mouse.move(0, 0);
      await spyButton(row, 'Nhắc').hover();
      await expect(admin.page.getByRole('tooltip')).toHaveText('Nói với nhân viên, khách hàng không nghe thấy bạn', { timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await admin.page.screenshot({ path: `${shots}/monitor-spy-light.png`, fullPage: true });
    await setDark(admin.page, true);
    await expect.poll(() => backgroundLuminance(admin.page)).toBeLessThan(DARK_MAX);
    await admin.page.screenshot({ path: `${shots}/monitor-spy-dark.png`, fullPage: true });
    // The big screen: 102's tile carries them too.
    await wall.wallboardToggle().click();
    await expect(wall.wall()).toHaveAttribute('data-wallboard', 'true');
    await expect(wall.agent('102').getByTestId('spy-buttons').getByRole('button')).toHaveText(['Nghe', 'Nhắc', 'Tham gia']);
    await admin.page.screenshot({ path: `${shots}/monitor-spy-wallboard-dark.png` });
    await setDark(admin.page, false);
    await wall.wallboardToggle().click();
    await expect(wall.wall()).toHaveAttribute('data-wallboard', 'false');

    // The agent's own wall shows their call, and no button to spy on it (no monitor.spy).
    await expect(own.calls().filter({ hasText: CALLER }).getByTestId('call-state')).toHaveAttribute('data-state', 'talking');
    await expect(own.agentState('102')).toHaveAttribute('data-state', 'talking');
    await expect(agent.page.getByTestId('spy-buttons')).toHaveCount(0);
    await expect(agent.page.getByTestId('spy-help')).toHaveCount(0);
    await expect(agent.page.getByText('Tham gia', { exact: true })).toHaveCount(0);
    await agent.page.screenshot({ path: `${shots}/monitor-spy-agent-own-light.png`, fullPage: true });

    // Listen: the supervisor's phone calls *222102 and says so.
    await spyButton(row, 'Nghe').click();
    await expect(admin.phone.badge()).toHaveText('Đã kết nối', { timeout: 15_000 });
    await expect(admin.page.getByTestId('softphone-remote')).toHaveText('Giám sát 102 · Nghe');
    await expect(admin.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(admin.phone.customerCard()).toHaveCount(0); // the other side is 102's call, not a customer
    // In a call the wall's buttons wait, and say why (the keys switch mode).
    await expect(spyButton(row, 'Tham gia')).toHaveAttribute('aria-disabled', 'true');
    await spyButton(row, 'Tham gia').hover();
    await expect(admin.page.getByRole('tooltip')).toHaveText('Điện thoại chưa sẵn sàng: máy nhánh chưa đăng ký hoặc đang có cuộc gọi');
    await admin.page.screenshot({ path: `${shots}/monitor-spy-listening-light.png`, fullPage: true });
    await pause(1000);

    // The supervisor hears the agent (their beep; the caller is silent)…
    const agentHeard = await energyDuring(admin.page, () => pause(3000));
    // …and the caller (a 440 Hz voice) once the agent is muted.
    await agent.page.getByTestId('softphone-mute').click();
    await expect(agent.page.getByTestId('softphone-mute')).toHaveAttribute('aria-pressed', 'true');
    await pause(500);
    const listenFrom = Date.now();
    const callerHeard = await energyDuring(admin.page, () => ear.speak(440, 3000));
    await pause(1000); // the caller's last words leave the agent's jitter buffer
    // Then nobody speaks but the supervisor's microphone: neither the agent nor the caller hears it.
    const agentHearsInListen = await energyDuring(agent.page, () => pause(3000));
    const listenTo = Date.now();
    const callerLoudInListen = loudPackets(ear, listenFrom, listenTo);

    // Whisper (5): the agent hears the supervisor, the caller still does not.
    await press(admin.page, '5');
    await expect(admin.page.getByTestId('softphone-remote')).toHaveText('Giám sát 102 · Nhắc');
    await pause(1000);
    const whisperFrom = Date.now();
    const agentHearsInWhisper = await energyDuring(agent.page, () => pause(3000));
    const callerLoudInWhisper = loudPackets(ear, whisperFrom, Date.now());

    // Barge (6): both hear the supervisor.
    await press(admin.page, '6');
    await expect(admin.page.getByTestId('softphone-remote')).toHaveText('Giám sát 102 · Tham gia');
    await pause(1000);
    const bargeFrom = Date.now();
    const agentHearsInBarge = await energyDuring(agent.page, () => pause(3000));
    const callerLoudInBarge = loudPackets(ear, bargeFrom, Date.now());
    await admin.page.screenshot({ path: `${shots}/softphone-spy-barge.png` });

    console.log(JSON.stringify({
      supervisor: { agentHeard, callerHeard },
      agent: { listen: agentHearsInListen, whisper: agentHearsInWhisper, barge: agentHearsInBarge },
      callerLoudPackets: { listen: callerLoudInListen, whisper: callerLoudInWhisper, barge: callerLoudInBarge },
    }));
    // A browser's beep (every 0.5 s) brings about 0.09 of energy; 3 s of it about 0.5. Less than one
    // beep's worth in 3 s is silence (what is left of the caller's voice, noise).
    expect(agentHeard, 'listen: the supervisor hears the agent').toBeGreaterThan(0.05);
    expect(callerHeard, 'listen: the supervisor hears the caller').toBeGreaterThan(0.05);
    expect(agentHearsInListen, 'listen: the agent does not hear the supervisor').toBeLessThan(0.03);
    expect(callerLoudInListen, 'listen: the caller does not hear the supervisor').toBe(0);
    expect(agentHearsInWhisper, 'whisper: the agent hears the supervisor').toBeGreaterThan(0.05);
    expect(callerLoudInWhisper, 'whisper: the caller does not hear the supervisor').toBe(0);
    expect(agentHearsInBarge, 'barge: the agent hears the supervisor').toBeGreaterThan(0.05);
    expect(callerLoudInBarge, 'barge: the caller hears the supervisor').toBeGreaterThan(2);

    // The supervisor leaves; agent and caller talk on. Then a barge straight from 102's row on the wall.
    await admin.phone.hangup();
    await admin.phone.expectReady();
    await expect(agent.phone.badge()).toHaveText('Đã kết nối');
    const tile = wall.agent('102');
    await expect(spyButton(tile, 'Tham gia')).not.toHaveAttribute('aria-disabled', 'true');
    await spyButton(tile, 'Tham gia').click();
    await expect(admin.phone.badge()).toHaveText('Đã kết nối', { timeout: 15_000 });
    await expect(admin.page.getByTestId('softphone-remote')).toHaveText('Giám sát 102 · Tham gia');
    await pause(1000);
    const directFrom = Date.now();
    await pause(3000);
    expect(loudPackets(ear, directFrom, Date.now()), 'barge from the wall: the caller hears the supervisor').toBeGreaterThan(2);
    await admin.phone.hangup();
    await admin.phone.expectReady();

    // The agent ends the call: the caller gets the BYE.
    await agent.page.getByTestId('softphone-mute').click();
    await agent.phone.hangup();
    expect((await call.done).code).toBe(0);
    await agent.phone.expectReady();
  } finally {
    // A failed attempt leaves no call behind for the retry (the worker would still hold 102's).
    for (const p of [admin, agent]) {
      const hangup = p.page.getByTestId('softphone-hangup');
      if (await hangup.isVisible()) await hangup.click();
    }
    call.stop();
    ear.close();
  }
});
