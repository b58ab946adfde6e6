import type { SipAccount } from '../providers/types';

type Reply = { data: unknown } | Error;
const replies = new Map<string, Reply>();
const requests: { surface: string; path: string; headers?: Record<string, string> }[] = [];
const client = (surface: string) => ({
  get: (path: string, opts?: { headers?: Record<string, string> }) => {
    requests.push({ surface, path, headers: opts?.headers });
    const r = replies.get(`${surface} ${path}`);
    return { json: async () => { if (!r || r instanceof Error) throw r ?? new Error(`no reply for ${surface} ${path}`); return r; } };
  },
});
jest.mock('@tongdai/platform', () => ({
  tenantApi: () => client('tenant'),
  telecomApi: () => client('telecom'),
  publicApi: (surface: string) => client(`public-${surface}`),
  systemSetting: { get: () => null },
  featureEnabled: () => true,
}));

import { fetchDirectory, fetchSipAccount } from './account';

const base = { username_telecom: '102', domain_telecom: 'demo.tongdai.local', password_telecom: 'pw', ws_url: 'ws://x', display_name: 'Nhân viên' };
beforeEach(() => { replies.clear(); requests.length = 0; });

describe('the SIP account and the telecom key (SPEC §3, §7)', () => {
  it('provider 2 takes its shop key from GET /etelecom/GetShopKey', async () => {
    replies.set('tenant sip-account', { data: { ...base, provider: 2, shop_key: 'demo.from-sip-account' } });
    replies.set('telecom etelecom/GetShopKey', { data: 'demo.from-telecom' });
    expect((await fetchSipAccount())?.shop_key).toBe('demo.from-telecom');
  });
  it('keeps the key of /sip-account when the telecom API does not answer', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    replies.set('tenant sip-account', { data: { ...base, provider: 2, shop_key: 'demo.from-sip-account' } });
    replies.set('telecom etelecom/GetShopKey', new Error('503'));
    expect((await fetchSipAccount())?.shop_key).toBe('demo.from-sip-account');
    warn.mockRestore();
  });
  it('provider 1 never asks the telecom API; 404 means no extension', async () => {
    replies.set('tenant sip-account', { data: { ...base, provider: 1 } });
    expect((await fetchSipAccount())?.provider).toBe(1);
    expect(requests.map((r) => r.surface)).toEqual(['tenant']);
    replies.set('tenant sip-account', Object.assign(new Error('404'), { response: { status: 404 } }));
    expect(await fetchSipAccount()).toBeNull();
  });
});

describe('transfer targets', () => {
  it('provider 2: the telecom directory with the shop key as bearer, outside the session client', async () => {
    replies.set('public-telecom etelecom/extensions', { data: [{ extension: '101', display_name: 'Quản trị viên' }] });
    const p2: SipAccount = { ...base, provider: 2, shop_key: 'demo.k' };
    expect(await fetchDirectory(p2)).toEqual([{ extension: '101', display_name: 'Quản trị viên' }]);
    expect(requests[0].headers).toEqual({ Authorization: 'Bearer demo.k' });
  });
  it('other providers: the extensions linked to accounts, from the tenant API', async () => {
    replies.set('tenant subscriber-has-user', { data: [{ id: 1, extension: '101', display_name: 'Quản trị viên', user_id: 3, user_name: 'x', created_at: '' }] });
    expect(await fetchDirectory({ ...base, provider: 1 })).toEqual([{ extension: '101', display_name: 'Quản trị viên' }]);
  });
});
