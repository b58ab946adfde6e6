import type { FastifyInstance } from 'fastify';
import { SUBSCRIBER_MSG, type Subscriber } from '@tongdai/contracts';
import { toneWav } from '@tongdai/testkit/wav';
import { INTERNAL_HEADERS, carrierSource, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

const DID = '02873000081';

/**
 * Issue 16, the API's half of voicemail: an extension's ring time and mailbox are its settings,
 * the routing configuration plans with them, the media worker's recording is stored in the
 * mailbox, and only the mailbox's owner hears it (the real chain with Kamailio and the worker:
 * kamailio/calls.integration.test.ts).
 */
describe('voicemail: settings, plans, messages', () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let h: Awaited<ReturnType<typeof demoHeaders>>;
  let ext102: Subscriber;
  let src = '';

  const put = (body: object) => t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${ext102.id}`, headers: h.admin, payload: body });
  const base = () => ({ extension: '102', display_name: ext102.display_name, user_id: ext102.user_id });
  const upload = (q: Record<string, string>, body: Buffer, type = 'audio/wav') =>
    internal.inject({ method: 'POST', url: `/internal/sip/media/voicemail?${new URLSearchParams(q)}`, headers: { ...INTERNAL_HEADERS, 'content-type': type }, payload: body });

  beforeAll(async () => {
    t = await startTestApp();
    h = await demoHeaders(t.app);
    src = await carrierSource(t.db);
    const list = await t.app.inject({ url: '/t/demo/subscribers', headers: h.admin });
    ext102 = (list.json().data as Subscriber[]).find((s) => s.extension === '102')!;
    internal = buildInternalServer(t.db);
    const r = await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user: '102', domain: 'demo.tongdai.local', expires: 600 } });
    expect(r.statusCode).toBe(200);
    for (const [path, body] of [['/pbx/partner/number?CodeCompany=demo', { number: DID }], ['/pbx/partner/inbound?CodeCompany=demo', { did: DID, destination: { type: 'direct', target: '102' } }]] as const) {
      expect((await t.app.inject({ method: 'POST', url: path, headers: h.admin, payload: body })).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
  });

  it('an extension keeps its ring time and mailbox; bad values get Vietnamese messages; a client that leaves them out changes nothing', async () => {
    expect(ext102).toMatchObject({ ring_time: null, voicemail_enabled: false, voicemail_pin: null, voicemail_max_seconds: 120 });
    const saved = await put({ ...base(), ring_time: '7', voicemail_enabled: true, voicemail_pin: '2468', voicemail_max_seconds: 30 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ ring_time: 7, voicemail_enabled: true, voicemail_pin: '2468', voicemail_max_seconds: 30 });
    for (const [body, field, message] of [
      [{ voicemail_pin: '12' }, 'voicemail_pin', SUBSCRIBER_MSG.voicemailPin],
      [{ ring_time: 2 }, 'ring_time', SUBSCRIBER_MSG.ringTime],
      [{ voicemail_max_seconds: '9000' }, 'voicemail_max_seconds', SUBSCRIBER_MSG.voicemailMax],
      [{ voicemail_greeting_id: 999_999 }, 'voicemail_greeting_id', SUBSCRIBER_MSG.greetingNotFound],
    ] as const) {
      const bad = await put({ ...base(), ...body });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toContainEqual({ field, message });
    }
    // Only extension, name and account (a partner client): the settings stay.
    const plain = await put(base());
    expect(plain.json().data).toMatchObject({ ring_time: 7, voicemail_enabled: true, voicemail_pin: '2468', voicemail_max_seconds: 30 });
  });

  it('the plan rings 102 for its own ring time, then its mailbox: the worker is told the greeting and the longest message', async () => {
    const plan = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=vm-plan-1&source=trunk&from=0901000081&from_domain=carrier.example&to=${DID}${src}` });
    const steps = plan.json().steps;
    expect(steps[0]).toMatchObject({ do: 'ring', targets: ['102'], timeout: 7 });
    expect(steps[1]).toMatchObject({ do: 'media' });
    const session = await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/media/session?call_id=vm-plan-1&step=1' });
    expect(session.json().step).toEqual({ kind: 'voicemail', mailbox: '102', greeting_id: null, max_seconds: 30 });
  });

  it('a new extension has its mailbox on (issue 30): its unanswered direct call goes to voicemail; one created with the mailbox off just rings', async () => {
    const plans: Record<string, unknown[]> = {};
    for (const [extension, body] of [['2301', {}], ['2302', { voicemail_enabled: false }]] as const) {
      const created = await t.app.inject({ method: 'POST', url: '/t/demo/subscribers', headers: h.admin, payload: { extension, display_name: `Máy ${extension}`, ...body } });
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({ voicemail_enabled: extension === '2301', voicemail_pin: null });
      const plan = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=vm-new-${extension}&source=ext&from=102&from_domain=demo.tongdai.local&to=${extension}` });
      expect(plan.statusCode).toBe(200);
      plans[extension] = (plan.json().steps as { do: string }[]).map((step) => step.do);
      const session = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/media/session?call_id=vm-new-${extension}&step=${plans[extension].indexOf('media')}` });
      if (extension === '2301') expect(session.json().step).toEqual({ kind: 'voicemail', mailbox: '2301', greeting_id: null, max_seconds: 120 });
      expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/subscribers/${created.json().data.id}`, headers: h.admin })).statusCode).toBe(204);
    }
    expect(plans).toEqual({ 2301: expect.arrayContaining(['media']), 2302: expect.not.arrayContaining(['media']) });
  });

  it("the worker's recording lands in 102's mailbox once; only 102's user hears it, marks it heard, deletes it", async () => {
    const wav = toneWav(1.5, 440);
    const first = await upload({ tenant_id: '1', mailbox: '102', caller: '0901000081', call_id: 'vm-call-1' }, wav);
    expect(first.statusCode).toBe(201);
    const id = first.json().id as number;
    expect(id).toBeGreaterThan(0);
    // A retried upload of the same call is the same message.
    expect((await upload({ tenant_id: '1', mailbox: '102', caller: '0901000081', call_id: 'vm-call-1' }, wav)).json()).toEqual({ id: null });
    // Not the worker's WAV; a mailbox the tenant does not have.
    expect((await upload({ tenant_id: '1', mailbox: '102', caller: '0901000081', call_id: 'vm-call-2' }, Buffer.from('RIFF....not a wave'))).statusCode).toBe(400);
    expect((await upload({ tenant_id: '1', mailbox: '109', caller: '0901000081', call_id: 'vm-call-3' }, wav)).statusCode).toBe(404);

    const mine = await t.app.inject({ url: '/t/demo/voicemail', headers: h.staff });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ data: [{ id, mailbox: '102', caller: '0901000081', duration_seconds: 1.5, created_at: expect.any(String), heard: false }], unheard: 1 });
    const audio = await t.app.inject({ url: `/t/demo/voicemail/${id}/audio`, headers: h.staff });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(audio.rawPayload, wav)).toBe(0);

    // 101's user has another mailbox; abc's admin another tenant: neither sees nor touches it.
    expect((await t.app.inject({ url: '/t/demo/voicemail', headers: h.admin })).json()).toEqual({ data: [], unheard: 0 });
    expect((await t.app.inject({ url: `/t/demo/voicemail/${id}/audio`, headers: h.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/voicemail/${id}`, headers: h.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/t/abc/voicemail/${id}/audio`, headers: h.abcAdmin })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/t/demo/voicemail/${id}/audio` })).statusCode).toBe(401);

    const heard = await t.app.inject({ method: 'PATCH', url: `/t/demo/voicemail/${id}`, headers: h.staff, payload: { heard: true } });
    expect(heard.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/t/demo/voicemail', headers: h.staff })).json()).toMatchObject({ data: [{ id, heard: true }], unheard: 0 });
    expect((await t.app.inject({ method: 'PATCH', url: `/t/demo/voicemail/${id}`, headers: h.staff, payload: { heard: 'yes' } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/voicemail/${id}`, headers: h.staff })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/t/demo/voicemail', headers: h.staff })).json()).toEqual({ data: [], unheard: 0 });
  });
});
