import { expect, test } from '../support/fixtures.ts';
import { DEMO } from '../pages/LoginPage.ts';
import { CampaignListPage, CampaignWorkPage } from '../pages/CampaignPages.ts';
import { gotoInApp } from '../support/navigate.ts';
import { kamailioInstalled, PHONE_LAUNCH, phoneOf, receivedAudio } from '../support/phones.ts';
import { startTestCarrier, type CarrierCall } from '../support/carrier.ts';
import { pbxApiAs, tenantApiAs } from '../support/tenant-api.ts';
import { demoCarrierAvailable } from '../../scripts/lib/demo-carrier.mjs';

test.use({ launchOptions: PHONE_LAUNCH });

const suffix = Date.now().toString(36).slice(-5);
const digits7 = () => String(Math.floor(1_000_000 + Math.random() * 8_999_999));
const ACCOUNT = { user: `0287${digits7()}`, password: `NhaMang-${suffix}-Đúng` };
/** The campaign's hotline (a Viettel mobile the tenant owns), the contact a Vinaphone mobile on the carrier. */
const HOTLINE = `086${digits7()}`;
const CONTACT = `091${digits7()}`;
const CAMPAIGN = `Chăm sóc qua nhà mạng ${suffix}`;

// Issue 33's e2e: "start it as an agent, call a contact through the campaign's hotline". The demo carrier
// (ADR 0037) is the PSTN and the contact's phone: it answers and speaks. The tenant's own outbound rule
// sends mobiles out with no caller ID of its own; the campaign's call leaves with the campaign's hotline
// (ADR 0050 slice 3), through the hotline's switchboard. The contact's row in the results links the call.
test('campaign call: the agent presses "Gọi" on the working screen; the softphone calls the contact through the carrier with the campaign\'s hotline as caller ID; the results link the call (issue 33)', async ({ request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // fails, never skips
  expect(demoCarrierAvailable(), 'demo-carrier dependencies are not installed').toBe(true);
  test.setTimeout(180_000);
  const carrier = await startTestCarrier('campaign-call-e2e', ACCOUNT);
  const carrierCalls = (): Promise<CarrierCall[]> => carrier.calls();

  const api = await tenantApiAs(request, DEMO);
  const pbx = await pbxApiAs(request, DEMO);
  const cleanup: (() => Promise<unknown>)[] = [];
  const agent = await phoneOf(DEMO, { watchMedia: true }); // the admin, extension 101, one of the campaign's agents
  const { page, phone } = agent;
  try {
    // The carrier as a switchboard that registers, the hotline on it, and a rule for mobiles with no caller ID of its own.
    const boardInput = { name: `Nhà mạng chiến dịch ${suffix}`, host: '127.0.0.1', port: carrier.sipPort, auth_user: ACCOUNT.user, auth_password: ACCOUNT.password, max_channels: 4, register_interval: 60 };
    const board = await api.create('etelecom/switchboards', boardInput);
    // The ended campaign keeps its hotline (the API refuses to remove it, 409), so the switchboard stays too:
    // turned off, it stops registering to the carrier stopped below.
    cleanup.unshift(() => api.update(`etelecom/switchboards/${board.id}`, { ...boardInput, auth_password: '', enabled: false }));
    await expect.poll(async () => ((await api.get(`etelecom/switchboards/${board.id}`)) as { status: string }).status, { timeout: 40_000, message: 'the switchboard registered to the carrier' }).toBe('registered');
    const hotline = await api.create('etelecom/hotlines', { number: HOTLINE, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });
    const rule = await pbx.create('rule', { name: `Di động chiến dịch ${suffix}`, pattern: '0[35789]XXXXXXXX', switchboard_ids: [board.id], caller_id_mode: 'carrier', priority: 0 });
    cleanup.unshift(() => pbx.remove('rule', rule.id));

    // A care campaign calling from that hotline, its one contact imported as the screen sends a CSV, started.
    const category = await api.create('survey-categories', { name: `Gọi qua nhà mạng ${suffix}` });
    const question = await api.create('survey-questions', { category_id: category.id, kind: 'yes_no', text: 'Anh/chị nghe rõ không?' });
    const options = await api.get('survey-campaigns/options');
    const admin = (options.agents as { id: number; name: string }[]).find((a) => /Quản trị viên/.test(a.name))!;
    const campaign = await api.create('survey-campaigns', { name: CAMPAIGN, purpose: 'care', question_ids: [question.id], agent_ids: [admin.id], hotline_id: hotline.id, script: 'Chào anh/chị {{name}}.' });
    cleanup.unshift(() => api.post(`survey-campaigns/${campaign.id}/state`, { to: 'ended' }).catch(() => undefined));
    const imported = await api.upload(`survey-campaigns/${campaign.id}/contacts/file`, { name: 'lien-he.csv', mimeType: 'text/csv', buffer: Buffer.from(`Họ tên,Số điện thoại\nChị Hoa,${CONTACT}\n`) }, { commit: '1' });
    expect(imported).toMatchObject({ imported: 1 });
    await api.post(`survey-campaigns/${campaign.id}/state`, { to: 'running' });

    // The agent's working screen, inside the running app (the softphone stays registered).
    await phone.expectReady();
    await gotoInApp(page, `/survey/campaign/start/${campaign.id}`);
    const screen = new CampaignWorkPage(page);
    await expect(screen.contact()).toContainText('Chị Hoa');
    await page.getByTestId('work-call').click();
    await expect(phone.badge()).toHaveText('Đã kết nối', { timeout: 20_000 });
    await expect(phone.badge()).toHaveAttribute('data-media-state', 'connected');
    // The contact's phone speaks: the agent hears it.
    const before = await receivedAudio(page);
    await expect.poll(async () => (await receivedAudio(page)).packets - before.packets, { timeout: 15_000, message: 'audio packets from the contact' }).toBeGreaterThan(100);
    // The carrier got the call to the contact, from the campaign's hotline (not the rule's: it has none).
    const out = (await carrierCalls()).find((c) => c.direction === 'in' && c.called === CONTACT);
    expect(out, 'the carrier received the call to the contact').toBeTruthy();
    expect(out!.state).toBe('answered');
    expect(out!.caller_id).toBe(HOTLINE);
    expect(out!.from).toContain(`sip:${HOTLINE}@`);
    await expect(phone.timer()).toHaveText(/^00:0[2-9]$/, { timeout: 15_000 });
    await phone.hangup();
    await phone.expectReady();
    await expect.poll(async () => (await carrierCalls()).find((c) => c.called === CONTACT)?.state).toBe('ended');

    // The answer and the result; nothing left to hand out.
    await screen.question(1).getByRole('radio', { name: 'Có' }).check();
    await screen.result('agreed', 'Đồng ý');
    await expect(screen.empty()).toBeVisible();

    // The hotline a campaign calls from cannot be removed (on this stack's PGlite; campaigns.integration on PostgreSQL).
    expect(await api.tryRemove(`etelecom/hotlines/${hotline.id}`)).toEqual({ status: 409, body: expect.objectContaining({ code: 'CONFLICT', message: 'Hotline đang là số gọi ra của một chiến dịch, hãy đổi hotline của chiến dịch trước' }) });

    // The results: the contact's row links its call — answered, with its talk time — once the record is written.
    const list = new CampaignListPage(page, 'survey');
    await list.open();
    const results = await list.results(CAMPAIGN);
    const row = results.getByTestId('contact-row').filter({ hasText: 'Chị Hoa' });
    await expect(row).toContainText('Đồng ý');
    await expect(async () => {
      await page.reload();
      const again = await list.results(CAMPAIGN);
      await expect(again.getByTestId('contact-row').filter({ hasText: 'Chị Hoa' }).getByTestId('contact-call')).toContainText('Trả lời', { timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('results-dialog').getByTestId('contact-row').filter({ hasText: 'Chị Hoa' })).toContainText(/00:0[2-9]/);
    await page.screenshot({ path: '../.tmp/screens/campaign-call-results-light.png', fullPage: true });
  } finally {
    for (const undo of cleanup) await undo().catch((e: unknown) => console.warn('cleanup:', e));
    await page.context().close();
    await carrier.stop();
  }
});
