import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_MESSAGES } from '@tongdai/contracts';
import { multipart, wav } from '@tongdai/testkit/pbx-kit';
import { demoHeaders, startTestApp, type TestApp } from '../../test/helpers';
import { INPUT_MSG } from './input-guard';

/** Issue 12 §4: inputs PostgreSQL refuses answered 500; each is a 400 with the API's body now. */
describe('input guard: NUL, ids beyond int4, huge pages, a 100 kB query string', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = (await demoHeaders(t.app)).admin;
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: admin });
  const bad = (field: string, message: string) => ({ status: 400, code: 'VALIDATION_FAILED', message: ERROR_MESSAGES.VALIDATION_FAILED, details: [{ field, message }] });
  const count = async (table: string) => Number((await t.db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0].n);

  it('refuses a NUL in a search and in a text field, writing nothing', async () => {
    for (const url of ['/pbx/partner/inbound?search=a%00b', '/pbx/partner/time-group?search=%00', '/t/demo/customers?search=x%00']) {
      const res = await send('GET', url);
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, bad('search', INPUT_MSG.nul)]);
    }
    const groups = await count('pbx_time_groups');
    const res = await send('POST', '/pbx/partner/time-group', { name: 'Giờ\u0000', description: '' });
    expect([res.statusCode, res.json()]).toEqual([400, bad('name', INPUT_MSG.nul)]);
    expect(await count('pbx_time_groups')).toBe(groups);
    const nested = await send('POST', '/pbx/partner/ivr_detail', { name: 'IVR', options: [{ key: '1', note: '\u0000' }] });
    expect(nested.json().details).toEqual([{ field: 'options.0.note', message: INPUT_MSG.nul }]);
  });

  it('refuses a NUL in the text fields of multipart forms (greetings, site name)', async () => {
    for (const url of ['/pbx/partner/greeting', '/t/demo/change-info-site']) {
      const form = multipart({ name: 'Lời chào\u0000' }, { name: 'a.wav', type: 'audio/wav', bytes: wav(1) });
      const res = await t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...admin, ...form.headers } });
      expect([url, res.statusCode, res.json().details]).toEqual([url, 400, [{ field: 'name', message: INPUT_MSG.nul }]]);
    }
  });

  it('refuses ids beyond int4 in bodies and queries (user_id, role_id, department_id, team_id, branch_id)', async () => {
    const staff = (await send('GET', '/t/demo/accounts')).json().data[1];
    for (const field of ['role_id', 'department_id', 'team_id', 'branch_id']) {
      const res = await send('PUT', `/t/demo/accounts/${staff.id}`, { [field]: 2147483648 });
      expect([field, res.statusCode, res.json().details]).toEqual([field, 400, [{ field, message: INPUT_MSG.tooBig }]]);
    }
    const customers = await count('customers');
    const res = await send('POST', '/t/demo/customers', { name: 'Khách', phone: '0901234567', user_id: 2 ** 31 });
    expect([res.statusCode, res.json().details]).toEqual([400, [{ field: 'user_id', message: INPUT_MSG.tooBig }]]);
    expect(await count('customers')).toBe(customers);
    const team = await send('POST', '/t/demo/teams', { name: 'Nhóm', department_id: '99999999999999999999' });
    expect(team.json().details).toEqual([{ field: 'department_id', message: INPUT_MSG.tooBig }]);
    expect((await send('GET', '/t/demo/teams?department_id=99999999999999999999')).statusCode).toBe(400);
    expect((await send('GET', '/t/demo/customers/99999999999999999999')).json().code).toBe('NOT_FOUND');
    expect((await send('GET', '/t/demo/customers/1%00')).json().details).toEqual([{ field: 'id', message: INPUT_MSG.nul }]);
  });

  it('refuses page=99999999999999999999 and huge page sizes on every list', async () => {
    for (const list of ['/t/demo/roles', '/t/demo/accounts', '/t/demo/customers', '/t/demo/departments', '/t/demo/subscribers', '/pbx/partner/inbound']) {
      for (const q of ['page=99999999999999999999', 'per_page=99999999999999999999', 'page_size=1e300', 'page=-99999999999999999999']) {
        const res = await send('GET', `${list}?${q}`);
        expect([list, q, res.statusCode, res.json().code]).toEqual([list, q, 400, 'VALIDATION_FAILED']);
      }
    }
  });

  it('refuses JSON nested deeper than any form', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const res = await send('POST', '/t/demo/customers', { name: deep });
    expect([res.statusCode, res.json().details[0].message]).toEqual([400, INPUT_MSG.tooDeep]);
  });

  it('answers a 100 kB query string with our body (414), not Node’s', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/t/demo/customers?search=${'a'.repeat(100 * 1024)}`, headers: admin }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([414, { ...bad('url', INPUT_MSG.urlTooLong), status: 414 }]);
  });
});
