import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';
import { warmContext } from './fixtures.ts';

/** Fake microphone, permission prompts answered: two phones of a test really call each other. */
export const PHONE_LAUNCH = { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] };

/** Specs that make real calls need Kamailio on this machine. */
export function kamailioInstalled(): boolean {
  try { execFileSync('sh', ['-c', 'command -v kamailio || test -x /usr/sbin/kamailio'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/**
 * A logged-in browser context with its softphone (microphone allowed). o.watchMedia: the page keeps
 * its RTCPeerConnections so `receivedAudio` can read what the phone hears. o.watchSip: every SIP
 * request the phone's WebSocket receives, as text, in `sipReceived` (listened to before the phone
 * connects, so none is missed). `sipTrace`: the first line of every SIP message each way and the
 * socket opening and closing, timed: printed when a test of a phone's timeline fails. o.fullBrowser: in
 * the full Chromium (support/fixtures.ts warmContext).
 */
export async function phoneOf(who: typeof DEMO, o: { watchMedia?: boolean; watchSip?: boolean; viewport?: { width: number; height: number }; fullBrowser?: boolean } = {}): Promise<{ page: Page; phone: SoftphonePage; sipReceived: string[]; sipTrace: string[] }> {
  // A warm context of this worker (support/fixtures.ts); the test's `context().close()` gives it back.
  const context = await warmContext({ microphone: true, fullBrowser: o.fullBrowser });
  const page = await context.newPage();
  await page.setViewportSize(o.viewport ?? { width: 1600, height: 900 });
  if (o.watchMedia) {
    await page.addInitScript(() => {
      const Native = window.RTCPeerConnection;
      const seen: RTCPeerConnection[] = [];
      (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = seen;
      window.RTCPeerConnection = class extends Native {
        constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
          super(...args);
          seen.push(this);
        }
      };
    });
  }
  const sipReceived: string[] = [];
  if (o.watchSip) page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => { if (/^[A-Z]+ sip:/.test(String(payload))) sipReceived.push(String(payload)); }));
  const sipTrace: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  const trace = (way: string, payload: string | Buffer) => {
    const text = String(payload);
    if (/^(SIP\/2\.0 |[A-Z]+ sip:)/.test(text)) sipTrace.push(`${at()} ${way} ${text.split('\r\n', 1)[0]} ${/^CSeq:.*$/im.exec(text)?.[0] ?? ''}`);
  };
  page.on('websocket', (ws) => {
    sipTrace.push(`${at()} open ${ws.url()}`);
    ws.on('framesent', ({ payload }) => trace('→', payload));
    ws.on('framereceived', ({ payload }) => trace('←', payload));
    ws.on('close', () => sipTrace.push(`${at()} close ${ws.url()}`));
  });
  await new LoginPage(page).loginAs(who);
  return { page, phone: new SoftphonePage(page), sipReceived, sipTrace };
}

/** Dials from an open or closed dial pad (a second call finds it open). */
export async function dial(page: Page, number: string) {
  const input = page.getByTestId('softphone-number');
  if (!(await input.isVisible())) await page.getByTestId('softphone-dialpad-toggle').click();
  await input.fill(number);
  await page.getByTestId('softphone-call').click();
}

type Phone = Awaited<ReturnType<typeof phoneOf>>;

/**
 * One answered call: `caller` dials `number`, `callee` answers, they talk until the callee's timer
 * reads `talk` (mm:ss), the caller hangs up, and both phones are ready again.
 */
export async function answeredCall(caller: Phone, callee: Phone, number: string, talk = '00:01') {
  await dial(caller.page, number);
  await expect(callee.phone.incoming()).toBeVisible();
  await callee.phone.answer();
  await expect(caller.phone.badge()).toHaveText('Đã kết nối');
  // At least `talk`, not exactly: under load the caller's "Đã kết nối" came seconds after the answer,
  // the callee's timer already past 00:02, and a wait for "00:02" ran to 00:15 (ci5 of the thirtieth session).
  const secs = (t: string | null) => (t && /^\d+:\d\d$/.test(t) ? Number(t.split(':')[0]) * 60 + Number(t.split(':')[1]) : -1);
  await expect.poll(async () => secs(await callee.phone.timer().textContent({ timeout: 1_000 }).catch(() => null)), {
    message: `the callee's timer reaches ${talk}`, timeout: 15_000, intervals: [100, 250],
  }).toBeGreaterThanOrEqual(secs(talk));
  await caller.phone.hangup();
  await caller.phone.expectReady();
  await callee.phone.expectReady();
}

/**
 * What the newest call's peer connection receives (a page from `phoneOf(…, { watchMedia: true })`):
 * the inbound audio RTP's packets, its total audio energy (sum of level² × seconds) and current level (0–1).
 */
export function receivedAudio(page: Page): Promise<{ packets: number; energy: number; level: number }> {
  return page.evaluate(async () => {
    const pc = (window as unknown as { peerConnections?: RTCPeerConnection[] }).peerConnections?.at(-1);
    const none = { packets: 0, energy: 0, level: 0 };
    if (!pc) return none;
    let found = none;
    (await pc.getStats()).forEach((r: { type: string; kind?: string; packetsReceived?: number; totalAudioEnergy?: number; audioLevel?: number }) => {
      if (r.type === 'inbound-rtp' && r.kind === 'audio') found = { packets: r.packetsReceived ?? 0, energy: r.totalAudioEnergy ?? 0, level: r.audioLevel ?? 0 };
    });
    return found;
  });
}
