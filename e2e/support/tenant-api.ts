import { expect, type APIRequestContext } from '@playwright/test';
import { API_URL } from './ports.ts';

type Who = { maDn: string; username: string; password: string };
type Response = Awaited<ReturnType<APIRequestContext['get']>>;

/** Logs in through the identity API: the bearer headers of that user. */
async function bearerOf(request: APIRequestContext, who: Who): Promise<Record<string, string>> {
  const login = await request.post(`${API_URL}/identity/login/tenant`, { data: { ma_dn: who.maDn, username: who.username, password: who.password } });
  expect(login.status()).toBe(200);
  return { Authorization: `Bearer ${((await login.json()) as { data: { token: string } }).data.token}` };
}

/** `data` of an answer that must have this status (the body is shown when it does not). */
async function dataOf(res: Response, status: number) {
  expect(res.status(), await res.text()).toBe(status);
  return ((await res.json()) as { data: any }).data; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The tenant API as a user: logs in through the identity API and keeps the bearer. */
export async function tenantApiAs(request: APIRequestContext, who: Who) {
  const headers = await bearerOf(request, who);
  const base = `${API_URL}/t/${who.maDn}`;
  return {
    get: async (path: string) => dataOf(await request.get(`${base}/${path}`, { headers }), 200),
    create: async (path: string, data: object) => dataOf(await request.post(`${base}/${path}`, { headers, data }), 201),
    update: async (path: string, data: object) => dataOf(await request.put(`${base}/${path}`, { headers, data }), 200),
    /** POST of an action (not a creation): answers 200. */
    post: async (path: string, data: object) => dataOf(await request.post(`${base}/${path}`, { headers, data }), 200),
    /** A file as the screens upload it (multipart: `file` and the form's other fields); answers 200. */
    upload: async (path: string, file: { name: string; mimeType: string; buffer: Buffer }, fields: Record<string, string> = {}) =>
      dataOf(await request.post(`${base}/${path}`, { headers, multipart: { ...fields, file } }), 200),
    /** DELETE as asked, whatever the answer: its status and body (a refusal to look at). */
    tryRemove: async (path: string) => {
      const res = await request.delete(`${base}/${path}`, { headers });
      return { status: res.status(), body: (await res.json().catch(() => null)) as { code?: string; message?: string } | null };
    },
    /** DELETE; fails unless the API answers 2xx. */
    remove: async (path: string) => {
      const res = await request.delete(`${base}/${path}`, { headers });
      expect(res.ok(), await res.text()).toBe(true);
    },
  };
}

/**
 * A third agent for call tests (the seed has two extensions): an account in the restricted role
 * with its own extension, created through the API as the tenant admin would (its mailbox on, as a
 * new extension's is, unless `voicemail: false`).
 */
export async function createAgentWithExtension(request: APIRequestContext, admin: { maDn: string; username: string; password: string }, o: { voicemail?: boolean } = {}) {
  const api = await tenantApiAs(request, admin);
  const suffix = Date.now().toString(36).slice(-5);
  const role = ((await api.get('roles?per_page=100')) as { id: number; name: string }[]).find((r) => r.name === 'nhan-vien')!;
  const password = 'Agent@12345';
  const account = await api.create('accounts', {
    full_name: `Tổng đài viên ${suffix}`, username: `agent-${suffix}`, password, password_confirmation: password, role_id: role.id, status: 'active',
  });
  const extension = String(7000 + Math.floor(Math.random() * 2999));
  await api.create('subscribers', { extension, display_name: `Tổng đài viên ${suffix}`, user_id: account.id, ...(o.voicemail !== undefined && { voicemail_enabled: o.voicemail }) });
  return { maDn: admin.maDn, username: account.username as string, password, extension };
}

/** The voice PBX partner API (/pbx/partner/{resource}?CodeCompany=…) as a tenant user. */
export async function pbxApiAs(request: APIRequestContext, who: Who) {
  const headers = await bearerOf(request, who);
  const url = (resource: string, query = '') => `${API_URL}/pbx/partner/${resource}?CodeCompany=${who.maDn}${query}`;
  return {
    all: async (resource: string) => dataOf(await request.get(url(resource, '&dataType=all'), { headers }), 200),
    create: async (resource: string, body: object) => dataOf(await request.post(url(resource), { headers, data: body }), 201),
    upload: async (resource: 'greeting' | 'moh', name: string, fileName: string, buffer: Buffer) =>
      dataOf(await request.post(url(resource), { headers, multipart: { name, file: { name: fileName, mimeType: 'audio/wav', buffer } } }), 201),
    /** DELETE of one object; fails unless the API answers 2xx. */
    remove: async (resource: string, id: number) => {
      const res = await request.delete(`${API_URL}/pbx/partner/${resource}/${id}?CodeCompany=${who.maDn}`, { headers });
      expect(res.ok(), await res.text()).toBe(true);
    },
  };
}
