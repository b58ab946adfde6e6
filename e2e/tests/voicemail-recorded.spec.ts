import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { tenantApiAs } from '../support/tenant-api.ts';

/**
 * Issue 30, as a tenant turns things on together: every call recorded (/setting/system) and 102's
 * mailbox on. 101 calls 102 from the browser, 102 lets it ring, the PBX takes a message: 102's
 * softphone has it and plays it; the call history says "Hộp thư thoại", not answered by 102, and
 * 102's own figures do not count it as answered.
 */
test.use({ launchOptions: PHONE_LAUNCH });

/** The message-summary NOTIFYs a phone received, in order: Messages-Waiting and Voice-Message's new/old. */
const mwiOf = (sip: string[]) =>
  sip.filter((m) => m.startsWith('NOTIFY ') && /^Event:\s*message-summary/im.test(m)).map((m) => ({
    waiting: /^Messages-Waiting:\s*(\w+)/im.exec(m)?.[1],
    counts: /^Voice-Message:\s*(\d+\/\d+)/im.exec(m)?.[1],
  }));

test('with every call recorded, 101 leaves 102 a voicemail from the browser: 102 plays it; the record says voicemail, not 102', async ({ browser, request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed (npm test installs it)').toBe(true); // fails, never skips
  test.setTimeout(150_000);
  const admin = await tenantApiAs(request, DEMO);
  const before = await admin.get('recording-settings');
  const ext102 = ((await admin.get('subscribers?per_page=100')) as { id: number; extension: string }[]).find((s) => s.extension === '102')!;
  const sub = await admin.get(`subscribers/${ext102.id}`);
  await admin.update('recording-settings', { recording_mode: 'all', retention_days: before.retention_days, monitor_calls: before.monitor_calls });
  await admin.update(`subscribers/${ext102.id}`, { ...sub, ring_time: 6, voicemail_enabled: true, voicemail_pin: '1234' });
  const a = await phoneOf(DEMO); // 101
  const b = await phoneOf(DEMO_AGENT, { watchSip: true }); // 102
  try {
    await a.phone.expectReady();
    await b.phone.expectReady();
    await expect(b.page.getByTestId('softphone-voicemail-unheard')).toHaveCount(0);

    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    // 102 lets it ring out; the PBX answers (prompt, beep) and records 101's fake microphone.
    await expect(a.phone.badge()).toHaveText('Đã kết nối', { timeout: 20_000 });
    await expect(b.phone.incoming()).toBeHidden();
    await expect(a.phone.timer()).toHaveText('00:14', { timeout: 30_000 });
    await a.phone.hangup();
    await a.phone.expectReady();

    // 102's lamp and panel: one new message with 101's voice, playable. Message waiting (RFC 3842)
    // reached 102's phone too: the API's NOTIFY through Kamailio, "yes, 1 new".
    await expect(b.page.getByTestId('softphone-voicemail-unheard')).toHaveText('1', { timeout: 40_000 });
    await expect.poll(() => mwiOf(b.sipReceived).at(-1), { timeout: 10_000 }).toEqual({ waiting: 'yes', counts: '1/0' });
    await b.page.getByTestId('softphone-voicemail-toggle').click();
    const rows = b.page.getByTestId('softphone-voicemail-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('softphone-voicemail-caller')).toContainText('101');
    await b.phone.playFirstVoicemail(2);
    // Played: the message is heard, the lamp goes out, on the softphone and by NOTIFY ("no, 0 new, 1 old").
    await expect(rows.first()).toHaveAttribute('data-heard', 'true');
    await expect(b.page.getByTestId('softphone-voicemail-unheard')).toHaveCount(0);
    await expect.poll(() => mwiOf(b.sipReceived).at(-1), { timeout: 10_000 }).toEqual({ waiting: 'no', counts: '0/1' });
    await b.page.screenshot({ path: '../.tmp/screens/softphone-voicemail-recorded.png' });

    // The record: a voicemail call of 102's with its message, nobody's answer; 102's own recent
    // calls say so (a missed call, no talk of 102's), 101's say the mailbox took it.
    const history = (await admin.get('reports/call-history?per_page=5')) as { caller: string; callee: string; result: string; answered_by: unknown; voicemail: unknown; recording: unknown }[];
    const call = history.find((c) => c.caller === '101' && c.callee === '102')!;
    expect(call).toMatchObject({ result: 'voicemail', answered_by: null });
    expect(call.voicemail).not.toBeNull();
    const agent = await tenantApiAs(request, DEMO_AGENT);
    const recent = ((await agent.get('histories-call')) as { number: string; result: string; missed: boolean; billsec: number }[])[0];
    expect(recent).toMatchObject({ number: '101', result: 'voicemail', missed: true, billsec: 0 });
    await b.phone.openRecent();
    await expect(b.page.getByTestId('softphone-recent-row').first()).toContainText('Hộp thư thoại');
    await expect(b.page.getByTestId('softphone-recent-row').first()).toHaveAttribute('data-missed', 'true');

  } finally {
    // 102's mailbox as it was (other specs count its messages).
    const agent = await tenantApiAs(request, DEMO_AGENT);
    for (const m of (await agent.get('voicemail')) as { id: number }[]) await agent.remove(`voicemail/${m.id}`);
    await admin.update('recording-settings', before);
    await admin.update(`subscribers/${ext102.id}`, sub);
    await a.page.context().close();
    await b.page.context().close();
  }
});
