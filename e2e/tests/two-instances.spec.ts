import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage, type Credentials } from '../pages/LoginPage.ts';
import { MonitorPage } from '../pages/MonitorPages.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { dial, PHONE_LAUNCH } from '../support/phones.ts';
import { startPair, type Pair } from '../support/pair.ts';
import { channelLevels } from '../support/recordings.ts';

/**
 * Issue 42 end to end: the main flows against a pair of API instances (support/pair.ts: one PostgreSQL,
 * one Redis, two API processes behind host/nginx.conf's upstream, Kamailio and a media worker asking
 * both internal listeners), and a rolling restart of the two with a call up. The admin (101) logs in
 * on /monitor and calls 102 in another browser; while they talk, the standby is stopped as a deploy
 * stops it (SIGTERM) and started again, then the instance holding the call plane: the other takes the
 * call over (ADR 0059), the call talks on, the browsers' sockets open again through nginx and the wall
 * still shows the call; after the hang-up 102 calls 101 (no call refused); the call history shows both
 * calls, answered, with their talk times, each once; the stopped holder comes back as the standby.
 * The tenant records every call for the first one (set on instance 2, while Kamailio asks instance 1
 * first): it goes through the media worker, and its recording, finished after the hand-over, plays
 * with both voices. The second is not recorded (set through nginx after the first): browser to
 * browser. The call history is read from the pair's streaming replica (both instances' freshness says so).
 */
test.use({ launchOptions: PHONE_LAUNCH });

const shots = '../.tmp/screens';
let pair: Pair;

test.beforeAll(async () => {
  // Two API processes compiled by tsx and a PostgreSQL cluster made from nothing, on a loaded 2-core machine.
  test.setTimeout(360_000);
  const t0 = Date.now();
  pair = await startPair(); // a missing program fails here, naming it: never a skip
  console.log(`two-instances: the pair started in ${((Date.now() - t0) / 1000).toFixed(1)} s (web ${pair.webUrl}, API ${pair.apiUrl})`);
});

test.afterAll(async () => {
  await pair?.stop();
});

// A failed test's report carries the tails of the pair's logs (both APIs, Kamailio, the media worker, nginx).
test.afterEach(async ({}, testInfo) => { // eslint-disable-line no-empty-pattern
  if (testInfo.status === testInfo.expectedStatus || !pair) return;
  for (const { name, body } of pair.logTails()) {
    const path = testInfo.outputPath(`pair-${name}`);
    mkdirSync(testInfo.outputDir, { recursive: true });
    writeFileSync(path, body);
    await testInfo.attach(`pair-${name}`, { path, contentType: 'text/plain' });
  }
});

/** A screen for a developer to look at (npm test sets E2E_SCREENSHOTS=0: not taken, support/fixtures.ts). */
async function shoot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === '0') return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** The events WebSockets a page opened (through nginx): when each opened and closed. */
type Sockets = { opened: number; closed: number | null }[];

/**
 * A user in a browser context of their own on the pair's host (a phone: fake microphone, allowed),
 * logged in; `at`: the page the login goes on to.
 */
async function userOf(browser: Browser, who: Credentials, at?: string) {
  const context = await browser.newContext({
    baseURL: pair.webUrl, locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh', permissions: ['microphone'], viewport: { width: 1600, height: 900 },
  });
  const page = await context.newPage();
  const sockets: Sockets = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/events')) return;
    const s = { opened: Date.now(), closed: null as number | null };
    sockets.push(s);
    ws.on('close', () => (s.closed = Date.now()));
  });
  await new LoginPage(page).loginAs(who, at);
  return { page, phone: new SoftphonePage(page), sockets };
}

type User = Awaited<ReturnType<typeof userOf>>;

/** The tenant's recording mode, saved by the admin on the API at `base` (an instance, or nginx's /api). */
async function recordCalls(u: User, base: string, mode: 'all' | 'none') {
  const token = await u.page.evaluate(() => localStorage.getItem('tongdai.token'));
  const headers = { Authorization: `Bearer ${token}` };
  const current = await u.page.request.get(`${base}/t/demo/recording-settings`, { headers });
  expect(current.status()).toBe(200);
  const settings = ((await current.json()) as { data: Record<string, unknown> }).data;
  const saved = await u.page.request.put(`${base}/t/demo/recording-settings`, { headers, data: { ...settings, recording_mode: mode } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** A phone's call timer in seconds (-1 when it shows none). */
const timer = async (u: User) => {
  const t = await u.phone.timer().textContent({ timeout: 1_000 }).catch(() => null);
  return t && /^\d+:\d\d$/.test(t) ? Number(t.split(':')[0]) * 60 + Number(t.split(':')[1]) : -1;
};

const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
const secondsOf = (t: string) => Number(t.split(':')[0]) * 60 + Number(t.split(':')[1]);

test('two API instances behind nginx: a call between two browsers on the wall outlives a rolling restart of both; the next call is answered; the report shows both once', async ({ browser }) => {
  test.setTimeout(300_000);
  const started = Date.now();
  const admin = await userOf(browser, DEMO, '/monitor'); // 101, the tenant's wall
  const agent = await userOf(browser, DEMO_AGENT); // 102
  try {
    await Promise.all([admin.phone.expectReady(), agent.phone.expectReady()]);
    const wall = new MonitorPage(admin.page);
    await expect(wall.wall()).toBeVisible();
    await expect(wall.agentState('102')).toHaveAttribute('data-state', 'free');

    // Every call recorded, saved on instance 2: Kamailio asks instance 1 for the plan (http_client's
    // failover goes to 2 only when 1 fails), which must know of the change (configuration invalidation
    // through Redis between instances).
    await recordCalls(admin, `http://127.0.0.1:${pair.apis[1].port}`, 'all');

    // 101 calls 102, 102 answers: the wall shows the call, both phones say it is recorded.
    await dial(admin.page, '102');
    await expect(agent.phone.incoming()).toBeVisible();
    const answeredAt = Date.now();
    await agent.phone.answer();
    await expect(admin.phone.badge()).toHaveText('Đã kết nối');
    await expect(agent.phone.badge()).toHaveText('Đã kết nối');
    await expect(admin.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(agent.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(wall.agentState('102')).toHaveAttribute('data-state', 'talking');
    await expect(wall.calls()).toHaveCount(1);
    const callId = await wall.calls().first().getAttribute('data-call-id');
    expect(callId).toBeTruthy();
    for (const u of [admin, agent]) await expect(u.page.getByTestId('softphone-recording')).toHaveText('Đang ghi âm');

    // Which instance follows the call (ADR 0059): it holds the call plane, the other stands by. Recorded,
    // the call is two dialogs: 101's to the media worker and the worker's to 102.
    const legs = 2;
    const planes = await Promise.all([pair.plane(0), pair.plane(1)]);
    const holder = planes.findIndex((p) => p.role === 'holder');
    expect(holder, `one instance holds the call plane: ${JSON.stringify(planes)}`).toBeGreaterThanOrEqual(0);
    const other = 1 - holder;
    expect(planes[holder]).toEqual({ role: 'holder', eventsConnected: true, active: legs });
    expect(planes[other]).toEqual({ role: 'standby' });

    /** The call talks on: both timers go on, the media connected; the wall shows the same call, 102 talking. */
    const talking = async (when: string) => {
      const at = { caller: await timer(admin), callee: await timer(agent) };
      expect(Math.min(at.caller, at.callee), `both phones show their call's timer ${when}`).toBeGreaterThanOrEqual(0);
      await expect.poll(() => timer(admin), { message: `the caller's timer goes on ${when}`, timeout: 10_000, intervals: [250] }).toBeGreaterThan(at.caller);
      await expect.poll(() => timer(agent), { message: `the callee's timer goes on ${when}`, timeout: 10_000, intervals: [250] }).toBeGreaterThan(at.callee);
      for (const u of [admin, agent]) {
        await expect(u.phone.badge()).toHaveText('Đã kết nối');
        await expect(u.phone.badge()).toHaveAttribute('data-media-state', 'connected');
      }
      await expect(wall.calls()).toHaveCount(1);
      await expect(wall.calls().first()).toHaveAttribute('data-call-id', callId!);
      await expect(wall.agentState('102')).toHaveAttribute('data-state', 'talking');
    };
    /** A page whose events socket closed since `t` has one open again (through nginx), opened after it closed. */
    const reopened = async (name: string, u: User, t: number) => {
      const cut = u.sockets.filter((s) => s.closed !== null && s.closed >= t);
      await expect.poll(() => u.sockets.filter((s) => s.closed === null && s.opened >= cut.at(-1)!.closed!).length, { message: `${name}'s events socket opens again`, timeout: 15_000 }).toBe(1);
    };
    const users = [['101', admin], ['102', agent]] as const;

    // A rolling restart with the call up, the standby first: stopped as a deploy stops it (SIGTERM, its
    // exit awaited) and started again. The call plane stays with the holder; a browser's socket that
    // was on the standby opens again on the holder through nginx (the standby is down for seconds).
    const first = Date.now();
    const standbyStopMs = await pair.stopApi(other);
    await pair.startApi(other);
    await expect.poll(() => pair.plane(other), { message: 'the standby started again stands by', timeout: 20_000 }).toEqual({ role: 'standby' });
    const standbyBack = Date.now() - first;
    expect(await pair.plane(holder)).toEqual({ role: 'holder', eventsConnected: true, active: legs });
    const movedFirst = users.filter(([, u]) => u.sockets.some((s) => s.closed !== null && s.closed >= first));
    for (const [name, u] of movedFirst) await reopened(name, u, first);
    await talking('after the standby restarted');
    // As a deploy must, the next instance is stopped only once nginx passes requests to this one again:
    // host/nginx.conf's max_fails=1 fail_timeout=5s keeps a server it found refusing (the browsers' calls
    // while it was down) out for 5 s after it is back, and stopping the holder meanwhile left nginx no
    // live server: 502 to every request and events socket for seconds (seen, before this wait).
    const live = await pair.nginxServes(other);
    console.log(`two-instances: the standby (instance ${other + 1}) exited ${standbyStopMs} ms after its SIGTERM, stood by again ${standbyBack} ms after it, nginx passed requests to it ${live} ms later; events sockets moved to the holder: ${movedFirst.map(([n]) => n).join(', ') || 'none'}`);

    // Then the holder, the call still up. Every browser's socket is on it now: the wall's socket (and
    // 102's) closes with it and opens again through nginx on the other instance, which takes the call
    // plane over (ADR 0059) and answers the wall's new snapshot with the call.
    const sigterm = Date.now();
    let snapshotAt = 0;
    const snapshot = admin.page.waitForResponse((r) => {
      const hit = r.url().endsWith('/monitor/snapshot') && r.request().method() === 'GET' && r.request().timing().startTime >= sigterm;
      if (hit) snapshotAt = Date.now();
      return hit;
    }, { timeout: 30_000 });
    const stopMs = await pair.stopApi(holder);
    const taken = await expect
      .poll(() => pair.plane(other), { message: 'the other instance takes the call plane over, the call with it', timeout: 20_000, intervals: [100] })
      .toEqual({ role: 'holder', eventsConnected: true, active: legs })
      .then(() => Date.now() - sigterm);
    console.log(`two-instances: instance ${holder + 1} (the holder) exited ${stopMs} ms after its SIGTERM; instance ${other + 1} followed the call ${taken} ms after it`);
    for (const [name, u] of users) {
      await expect.poll(() => u.sockets.some((s) => s.closed !== null && s.closed >= sigterm), { message: `${name}'s events socket, on the stopped holder, closes with it`, timeout: 10_000 }).toBe(true);
      await reopened(name, u, sigterm);
    }
    const fresh = await snapshot;
    expect(fresh.status()).toBe(200);
    expect(JSON.stringify(await fresh.json()), "the remaining instance's snapshot holds the call").toContain(callId!);
    await talking('after the hand-over');
    // nginx's word for it: both sockets it ended then (status 101, logged as they close) were proxied to
    // the holder, and the new snapshot came from the other instance.
    const access = pair.access().filter((a) => a.at >= sigterm - 100);
    const endedOnHolder = access.filter((a) => a.status === 101 && a.tried.at(-1) === `127.0.0.1:${pair.apis[holder].port}` && a.uri.endsWith('/events'));
    expect(endedOnHolder.length, JSON.stringify(access, null, 1)).toBeGreaterThanOrEqual(2);
    expect(access.some((a) => a.status === 200 && a.method === 'GET' && a.uri.endsWith('/monitor/snapshot') && a.tried.at(-1) === `127.0.0.1:${pair.apis[other].port}`)).toBe(true);
    console.log(`two-instances: both events sockets (nginx: ${endedOnHolder.length} ended on instance ${holder + 1}) opened again; the wall's new snapshot answered ${snapshotAt - sigterm} ms after the SIGTERM`);
    await shoot(admin.page, 'two-instances-wall-hand-over');

    // 101 hangs up: the talk time is what the callee's timer read.
    const talk1 = await timer(agent);
    await admin.phone.hangup();
    await admin.phone.expectReady();
    await agent.phone.expectReady();
    await expect(wall.calls()).toHaveCount(0);
    await expect(wall.agentState('102')).toHaveAttribute('data-state', 'free');

    // After the hand-over, recording off (through nginx: the remaining instance), and 102 calls 101:
    // answered (no call refused), browser to browser, the wall follows it.
    await recordCalls(admin, pair.apiUrl, 'none');
    await dial(agent.page, '101');
    await expect(admin.phone.incoming()).toBeVisible();
    await admin.phone.answer();
    await expect(agent.phone.badge()).toHaveText('Đã kết nối');
    await expect(agent.page.getByTestId('softphone-recording')).toHaveCount(0);
    await expect(admin.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(wall.agentState('101')).toHaveAttribute('data-state', 'talking');
    await expect.poll(() => timer(admin), { message: "101's timer reaches 00:02", timeout: 15_000, intervals: [100, 250] }).toBeGreaterThanOrEqual(2);
    const talk2 = await timer(admin);
    await agent.phone.hangup();
    await agent.phone.expectReady();
    await admin.phone.expectReady();

    // The stopped instance starts again, meanwhile: it stands by.
    const back = (async () => {
      const t0 = Date.now();
      await pair.startApi(holder);
      await expect.poll(() => pair.plane(holder), { message: 'the instance started again stands by', timeout: 20_000 }).toEqual({ role: 'standby' });
      return Date.now() - t0;
    })();
    back.catch(() => undefined); // awaited below, after the report

    // The call history: both calls, answered, with their talk times, each exactly once. Records are
    // written as calls end (in batches): the page is read again until both are there.
    const history = new CallHistoryPage(admin.page);
    await admin.page.getByTestId('nav-call-history').click();
    await expect(history.list()).toBeVisible();
    await history.filter('range').selectOption('last7');
    await expect(async () => {
      await admin.page.reload();
      await expect(history.rows()).toHaveCount(2, { timeout: 5_000 });
    }).toPass({ timeout: 45_000 });
    const rows = [await history.rowText(0), await history.rowText(1)];
    expect(rows[0]).toMatchObject({ result: 'Trả lời', caller: '102', callee: '101', answeredBy: '101\nQuản trị viên', direction: 'Nội bộ' });
    expect(rows[1]).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102', answeredBy: '102\nNhân viên tổng đài', direction: 'Nội bộ' });
    // The record counts from the answer to the BYE; the timer was read a moment before the hang-up
    // (a loaded machine may take a few seconds to click it and send the BYE).
    console.log(`two-instances: talk times on the report ${rows[1].talk} (timer read ${mmss(talk1)}) and ${rows[0].talk} (timer read ${mmss(talk2)})`);
    for (const [shown, read] of [[rows[1].talk, talk1], [rows[0].talk, talk2]] as const) {
      expect(secondsOf(shown)).toBeGreaterThanOrEqual(read - 1);
      expect(secondsOf(shown)).toBeLessThanOrEqual(read + 4);
    }
    // The first call's recording, finished after the hand-over: it plays, as long as the talk, with both
    // voices (Chromium's fake microphones beep on both sides); the second call has none.
    await expect(async () => {
      await admin.page.reload();
      await expect(history.row(1).getByTestId('recording-toggle')).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 45_000 });
    await expect(history.row(0).getByTestId('recording-toggle')).toHaveCount(0);
    await history.row(1).getByTestId('recording-toggle').click();
    const audio = admin.page.getByTestId('recording-audio');
    await expect(audio).toHaveAttribute('src', /^blob:/);
    const duration = await audio.evaluate(async (el: HTMLAudioElement) => {
      if (!Number.isFinite(el.duration) || !el.duration) await new Promise((r) => el.addEventListener('loadedmetadata', r, { once: true }));
      return el.duration;
    });
    const [download] = await Promise.all([admin.page.waitForEvent('download'), history.row(1).getByTestId('recording-download').click()]);
    const levels = channelLevels(await download.path());
    console.log(`two-instances: the first call's recording lasts ${duration.toFixed(1)} s (talk ${rows[1].talk}, answered ${((Date.now() - answeredAt) / 1000).toFixed(0)} s ago), channel levels ${levels.map((l) => l.toFixed(3)).join(', ')}`);
    expect(duration).toBeGreaterThanOrEqual(secondsOf(rows[1].talk) - 2);
    expect(duration).toBeLessThanOrEqual(secondsOf(rows[1].talk) + 5);
    expect(levels).toHaveLength(2);
    for (const level of levels) expect(level).toBeGreaterThan(0.005);
    await shoot(admin.page, 'two-instances-call-history');
    console.log(`two-instances: instance ${holder + 1} back and standing by ${await back} ms after its start`);
    // Both instances read the reports from the replica (REPORTS_DATABASE_URL), not the primary.
    const token = await admin.page.evaluate(() => localStorage.getItem('tongdai.token'));
    for (const api of pair.apis) {
      const res = await admin.page.request.get(`http://127.0.0.1:${api.port}/t/demo/reports/freshness`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status()).toBe(200);
      expect(((await res.json()) as { data: { source: string } }).data.source).toBe('replica');
    }
    // The API through nginx says the same, both instances up again: two records in all, no other (a
    // refused call would be one, a call recorded by both instances two).
    const vnDay = (msAgo: number) => new Date(Date.now() + 7 * 3_600_000 - msAgo).toISOString().slice(0, 10);
    const all = await admin.page.request.get(`${pair.apiUrl}/t/demo/reports/call-history?from=${vnDay(86_400_000)}&to=${vnDay(0)}&page=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(all.status()).toBe(200);
    const body = (await all.json()) as { data: { result: string }[]; meta: { total: number } };
    expect({ total: body.meta.total, results: body.data.map((r) => r.result) }).toEqual({ total: 2, results: ['answered', 'answered'] });

    console.log(`two-instances: the flows took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await admin.page.context().close();
    await agent.page.context().close();
  }
});
