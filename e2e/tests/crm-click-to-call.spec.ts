import { expect, test } from '../support/fixtures.ts';
import { DEMO } from '../pages/LoginPage.ts';
import { kamailioInstalled, PHONE_LAUNCH, phoneOf, receivedAudio } from '../support/phones.ts';
import { startTestCarrier, type CarrierCall } from '../support/carrier.ts';
import { API_URL } from '../support/ports.ts';
import { pbxApiAs, tenantApiAs } from '../support/tenant-api.ts';
import { demoCarrierAvailable } from '../../scripts/lib/demo-carrier.mjs';

test.use({ launchOptions: PHONE_LAUNCH });

const suffix = Date.now().toString(36).slice(-5);
const digits7 = () => String(Math.floor(1_000_000 + Math.random() * 8_999_999));
const ACCOUNT = { user: `0287${digits7()}`, password: `NhaMang-${suffix}-Đúng` };
/** The rule's caller ID (a hotline the tenant owns on the carrier), and the customer a Vinaphone mobile behind the carrier. */
const HOTLINE = `086${digits7()}`;
const CUSTOMER = `091${digits7()}`;

/** GET /calls of the demo carrier, with who hung up (absent from the shared type). */
type Call = CarrierCall & { ended_by: 'carrier' | 'remote' | null };

// Issue 39's click-to-call (ADR 0066) with the browser softphone as the agent: a CRM's key asks for a call from
// extension 101 (the admin's softphone) to a customer; the softphone rings first with the customer's number, the
// agent answers, and only then does the demo carrier (the PSTN) get the call to the customer — from the rule's
// caller ID, as if 101 had dialled — answer and speak; the agent hears it and hangs up; the CRM reads "completed"
// and the call record's id, and the record is 101's outbound call to the customer.
test('click-to-call: the agent\'s softphone rings first, then the customer is called as the agent\'s own call and they talk (issue 39)', async ({ request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // fails, never skips
  expect(demoCarrierAvailable(), 'demo-carrier dependencies are not installed').toBe(true);
  test.setTimeout(180_000);
  const carrier = await startTestCarrier('crm-click-to-call-e2e', ACCOUNT);
  const callTo = async (number: string) => ((await carrier.calls()) as Call[]).filter((c) => c.direction === 'in' && c.called === number);
  const api = await tenantApiAs(request, DEMO);
  const pbx = await pbxApiAs(request, DEMO);
  const cleanup: (() => Promise<unknown>)[] = [];
  const agent = await phoneOf(DEMO, { watchMedia: true }); // the admin, extension 101
  const { page, phone } = agent;
  try {
    const boardInput = { name: `Nhà mạng click-to-call ${suffix}`, host: '127.0.0.1', port: carrier.sipPort, auth_user: ACCOUNT.user, auth_password: ACCOUNT.password, max_channels: 4, register_interval: 60 };
    const board = await api.create('etelecom/switchboards', boardInput);
    cleanup.unshift(() => api.update(`etelecom/switchboards/${board.id}`, { ...boardInput, auth_password: '', enabled: false }));
    await expect.poll(async () => ((await api.get(`etelecom/switchboards/${board.id}`)) as { status: string }).status, { timeout: 40_000, message: 'the switchboard registered to the carrier' }).toBe('registered');
    await api.create('etelecom/hotlines', { number: HOTLINE, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });
    const rule = await pbx.create('rule', { name: `Di động click-to-call ${suffix}`, pattern: '0[35789]XXXXXXXX', switchboard_ids: [board.id], caller_id_mode: 'fixed', caller_id: HOTLINE, priority: 0 });
    cleanup.unshift(() => pbx.remove('rule', rule.id));
    const key = (await api.create('voice-otp/keys', { name: `CRM ${suffix}`, scopes: ['calls.originate'] })) as { id: number; secret: string };
    cleanup.unshift(() => api.post(`voice-otp/keys/${key.id}/revoke`, {}));
    const crm = { Authorization: `Bearer ${key.secret}` };
    const read = async (id: string) => {
      const res = await request.get(`${API_URL}/crm/v1/calls/${id}`, { headers: crm });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as { status: string; cause: string | null; cdr_id: number | null; duration_s: number | null };
    };

    await phone.expectReady();
    const asked = await request.post(`${API_URL}/crm/v1/calls`, { headers: crm, data: { agent: '101', to: CUSTOMER, external_ref: `lead-${suffix}` } });
    expect(asked.status(), await asked.text()).toBe(202);
    const { id } = (await asked.json()) as { id: string };

    // The agent's phone rings first, showing the customer's number; the customer is not called yet.
    await expect(phone.incoming()).toBeVisible({ timeout: 20_000 });
    await expect(phone.incoming()).toContainText(CUSTOMER);
    // Named as the click-to-call it is: the agent knows whom the ring is for before answering.
    await expect(phone.incoming().getByTestId('softphone-caller-name')).toHaveText(`Gọi cho ${CUSTOMER}`);
    expect((await read(id)).status).toBe('ringing_agent');
    expect(await callTo(CUSTOMER), 'the customer is called only once the agent answers').toEqual([]);
    await phone.answer();

    // Then the carrier gets the call to the customer from the rule's caller ID, answers it and speaks: the agent hears it.
    await expect.poll(async () => (await callTo(CUSTOMER))[0]?.state, { timeout: 20_000, message: 'the customer called and answered' }).toBe('answered');
    const [out] = await callTo(CUSTOMER);
    expect(out.caller_id).toBe(HOTLINE);
    await expect.poll(async () => (await read(id)).status, { timeout: 10_000 }).toBe('answered');
    const before = await receivedAudio(page);
    await expect.poll(async () => (await receivedAudio(page)).packets - before.packets, { timeout: 15_000, message: 'audio packets from the customer' }).toBeGreaterThan(100);
    await expect(phone.timer()).toHaveText(/^00:(0[2-9]|1[0-7])$/, { timeout: 15_000 });
    await phone.hangup();
    await phone.expectReady();
    await expect.poll(async () => (await callTo(CUSTOMER))[0]?.state).toBe('ended');

    // The CRM reads the end and the record's id; the record is 101's outbound call to the customer.
    await expect.poll(async () => (await read(id)).status, { timeout: 15_000 }).toBe('completed');
    await expect.poll(async () => (await read(id)).cdr_id, { timeout: 15_000 }).not.toBeNull();
    expect((await read(id)).duration_s).toBeGreaterThanOrEqual(2);
    const cdrId = (await read(id)).cdr_id;
    const history = (await api.get(`reports/call-history?search=${CUSTOMER}`)) as { id: number; direction: string; caller: string; did: string | null; result: string }[];
    expect(history.find((r) => r.id === cdrId), `the call history's row ${cdrId}`).toMatchObject({ direction: 'outbound', caller: '101', did: HOTLINE, result: 'answered' });
  } catch (e) {
    console.log(`SIP of 101:\n${agent.sipTrace.join('\n')}`);
    throw e;
  } finally {
    for (const undo of cleanup) await undo().catch((e: unknown) => console.warn('cleanup:', e));
    await page.context().close();
    await carrier.stop();
  }
});
