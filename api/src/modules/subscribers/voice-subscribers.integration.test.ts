import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { VoiceSubscriber } from '@tongdai/contracts';
import { DEMO_SIP } from '../../db/seed-data';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

/**
 * The telecom side's view of the subscribers (issue 15, /voices/subscribers): the SIP domain and the
 * live registration Kamailio reports (the same request it makes), and a password reset the provider-2
 * SIP account and Kamailio's digest both follow at once.
 */
describe('voice subscribers (GET /voice-subscribers) and the provider-2 SIP account after a reset', () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let h: Awaited<ReturnType<typeof demoHeaders>>;
  beforeAll(async () => {
    t = await startTestApp();
    h = await demoHeaders(t.app);
    internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub } });
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
  });
  const get = (url: string, headers = h.admin) => t.app.inject({ url, headers });
  const register = (user: string, domain: string, expires: number, ua?: string) =>
    internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain, expires, ...(ua && { ua }) } });
  const rows = async (url: string, headers = h.admin): Promise<VoiceSubscriber[]> => {
    const res = await get(url, headers);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const state = (list: VoiceSubscriber[]) => list.map((s) => [s.extension, s.registered]);
  /** Kamailio's report reaches the live state a moment after it is answered: wait for it (3 s at most). */
  const settled = async (url: string, expected: unknown) => {
    const end = Date.now() + 3000;
    while (JSON.stringify(state(await rows(url))) !== JSON.stringify(expected) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(state(await rows(url))).toEqual(expected);
  };

  it("shows each extension in the tenant's SIP domain with its owner, live registration and device, never a password", async () => {
    expect(state(await rows('/t/demo/voice-subscribers'))).toEqual([['101', false], ['102', false]]);
    expect((await register('102', 'demo.tongdai.local', 60, 'JsSIP 3.10.1')).statusCode).toBe(200);
    await settled('/t/demo/voice-subscribers', [['101', false], ['102', true]]);
    const res = await get('/t/demo/voice-subscribers');
    expect(res.json()).toEqual({
      data: [
        { id: expect.any(Number), extension: '101', display_name: 'Quản trị viên', user_id: expect.any(Number), user_name: 'Quản trị viên', created_at: expect.any(String), sip_domain: 'demo.tongdai.local', registered: false, user_agent: null, ring_time: null, voicemail_enabled: false, voicemail_pin: null, voicemail_greeting_id: null, voicemail_max_seconds: 120, recording_mode: null },
        { id: expect.any(Number), extension: '102', display_name: 'Nhân viên tổng đài', user_id: expect.any(Number), user_name: expect.any(String), created_at: expect.any(String), sip_domain: 'demo.tongdai.local', registered: true, user_agent: 'JsSIP 3.10.1', ring_time: null, voicemail_enabled: false, voicemail_pin: null, voicemail_greeting_id: null, voicemail_max_seconds: 120, recording_mode: null },
      ],
      meta: { page: 1, per_page: 10, total: 2 },
    });
    expect(res.body).not.toContain(DEMO_SIP.demo.staff.password);
    expect(state(await rows('/t/demo/voice-subscribers?registration=registered'))).toEqual([['102', true]]);
    expect(state(await rows('/t/demo/voice-subscribers?registration=offline'))).toEqual([['101', false]]);
    expect((await get('/t/demo/voice-subscribers?registration=registered')).json().meta.total).toBe(1);
    expect(state(await rows('/t/demo/voice-subscribers?search=101'))).toEqual([['101', false]]);
    expect((await get('/t/demo/voice-subscribers?registration=maybe')).statusCode).toBe(400);
    // A refresh from another phone (a desk phone took the extension) names that one.
    await register('102', 'demo.tongdai.local', 60, 'Yealink SIP-T46U 108.86.0.20');
    expect((await rows('/t/demo/voice-subscribers?registration=registered'))[0].user_agent).toBe('Yealink SIP-T46U 108.86.0.20');
    // An unregister (expires 0) ends it, and its device.
    await register('102', 'demo.tongdai.local', 0);
    await settled('/t/demo/voice-subscribers', [['101', false], ['102', false]]);
    expect((await rows('/t/demo/voice-subscribers')).map((r) => r.user_agent)).toEqual([null, null]);
  });

  it("is tenant-checked: demo's registered 101 is not abc's 101; another tenant's session gets 401; nhanvien 403", async () => {
    await register('101', 'demo.tongdai.local', 60);
    await settled('/t/demo/voice-subscribers', [['101', true], ['102', false]]);
    const abc = await rows('/t/abc/voice-subscribers', h.abcAdmin);
    expect(abc.map((s) => [s.extension, s.sip_domain, s.registered])).toEqual([['101', 'abc.tongdai.local', false]]);
    expect((await get('/t/demo/voice-subscribers', h.abcAdmin)).statusCode).toBe(401);
    expect((await get('/t/demo/voice-subscribers', h.staff)).json().code).toBe('FORBIDDEN');
  });

  it("a reset password is what GET /sip-account answers in the provider-2 fields and what Kamailio's digest checks; the old one is gone", async () => {
    const setting = await t.app.inject({
      method: 'PUT', url: '/t/demo/update-system-setting', headers: h.admin,
      payload: { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 2 },
    });
    expect(setting.statusCode).toBe(200);
    const before = (await get('/t/demo/sip-account', h.staff)).json().data;
    expect(before).toMatchObject({ provider: 2, extentions_number: '102', tenant_domain: 'demo.tongdai.local', extension_password: DEMO_SIP.demo.staff.password, shop_key: expect.stringMatching(/^demo\./) });

    const id = (await rows('/t/demo/voice-subscribers?search=102'))[0].id;
    const reset = await t.app.inject({ method: 'POST', url: `/t/demo/subscribers/${id}/reset-password`, headers: h.admin, payload: {} });
    const password = reset.json().data.password as string;
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);

    const after = (await get('/t/demo/sip-account', h.staff)).json().data;
    expect(after).toEqual({ ...before, password_telecom: password, extension_password: password });
    const ha1 = (await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/credentials?user=102&domain=demo.tongdai.local' })).body;
    const md5 = (p: string) => createHash('md5').update(`102:demo.tongdai.local:${p}`).digest('hex');
    expect(ha1).toBe(md5(password));
    expect(ha1).not.toBe(md5(DEMO_SIP.demo.staff.password));
  });
});
