import { CUSTOMER_MSG, ERROR_MESSAGES, MSG } from '@tongdai/contracts';
import { sampleCustomers } from '../../db/seed-data';
import { createCustomersService } from './customers.service';
import { startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';

const valid = { name: 'Trần Thị Bích Ngọc', phone: '0912345678', status: 'new', email: 'ngoc@congty.vn', address: '1 Lê Duẩn, Quận 1, TP.HCM' };

describe('customers (tenant surface)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = (url: string, headers = admin) => t.app.inject({ url, headers });

  it('lists 10 per page, newest first, with the total', async () => {
    const res = await get('/t/demo/customers');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, per_page: 10, total: 35 });
    expect(body.data).toHaveLength(10);
    expect(body.data[0].id).toBeGreaterThan(body.data[9].id);
    expect(Object.keys(body.data[0])).toEqual(expect.arrayContaining(['name', 'phone', 'status', 'note_in_calling', 'is_datasource', 'created_at']));
    const page4 = (await get('/t/demo/customers?page=4')).json();
    expect(page4.data).toHaveLength(5);
    const page2 = (await get('/t/demo/customers?page=2')).json();
    expect(page2.data[0].id).toBeLessThan(body.data[9].id);
  });

  it('searches name, phone, code and email case-insensitively', async () => {
    const byCode = (await get('/t/demo/customers?search=kh0001')).json();
    expect(byCode.meta.total).toBe(1);
    const byName = (await get(`/t/demo/customers?search=${encodeURIComponent('NGUYỄN')}`)).json();
    expect(byName.meta.total).toBeGreaterThan(0);
    expect(byName.data.every((c: { name: string }) => c.name.includes('Nguyễn'))).toBe(true);
    const phone = byCode.data[0].phone as string;
    expect((await get(`/t/demo/customers?search=${phone.slice(2, 8)}`)).json().meta.total).toBeGreaterThanOrEqual(1);
    expect((await get('/t/demo/customers?search=%25')).json().meta.total).toBe(0);
  });

  it('filters by status', async () => {
    const res = (await get('/t/demo/customers?status=potential')).json();
    expect(res.meta.total).toBe(7);
    expect(res.data.every((c: { status: string }) => c.status === 'potential')).toBe(true);
    expect((await get('/t/demo/customers?status=bogus')).statusCode).toBe(400);
  });

  it('creates, reads, updates and deletes a customer', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: valid });
    expect(created.statusCode).toBe(201);
    const c = created.json().data;
    // No code given: the next of the tenant's series, as the seeded customers' (issue 30: it was '').
    const seededMax = Math.max(...(await t.db.withTenant(1, async (tx) => (await tx.query<{ code: string }>("select code from customers where code ~ '^KH[0-9]+$' and id <> $1", [c.id])).rows)).map((r) => Number(r.code.slice(2))));
    expect(c).toMatchObject({ ...valid, code: `KH${String(seededMax + 1).padStart(4, '0')}`, zalo: '', user_id: null, id: expect.any(Number) });
    const typed = (await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, phone: '0912000999', code: 'VIP-01' } })).json().data;
    expect(typed.code).toBe('VIP-01');
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${typed.id}`, headers: admin })).statusCode).toBe(204);
    expect((await get(`/t/demo/customers/${c.id}`)).json().data).toEqual(c);
    const updated = await t.app.inject({ method: 'PUT', url: `/t/demo/customers/${c.id}`, headers: staff, payload: { ...valid, status: 'customer', note: 'Đã chốt đơn' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: c.id, status: 'customer', note: 'Đã chốt đơn' });
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${c.id}`, headers: admin })).statusCode).toBe(204);
    const gone = await get(`/t/demo/customers/${c.id}`);
    expect([gone.statusCode, gone.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    expect((await get('/t/demo/customers/abc')).statusCode).toBe(404);
  });

  it('refuses an invalid customer with the exact Vietnamese message per field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { name: '', phone: '12ab', status: 'new' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      details: [
        { field: 'name', message: 'Thông tin không được để trống' },
        { field: 'phone', message: 'Định dạng số điện thoại sai' },
      ],
    });
    const empty = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: {} });
    expect(empty.json().details).toEqual([
      { field: 'name', message: MSG.required },
      { field: 'phone', message: MSG.required },
      { field: 'status', message: MSG.required },
    ]);
  });

  it("assigns a customer only to a user of the same tenant (issue 12 §6: 12345, −1, another tenant's user were stored)", async () => {
    const own = (await get('/t/demo/accounts')).json().data[0].id as number;
    const other = (await get('/t/abc/accounts', abcAdmin)).json().data[0].id as number;
    const count = async () => Number((await t.db.query<{ n: string }>('select count(*) as n from customers')).rows[0].n);
    const before = await count();
    for (const user_id of [12345, -1, other]) {
      const res = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, user_id } });
      expect([user_id, res.statusCode, res.json().details]).toEqual([user_id, 400, [{ field: 'user_id', message: CUSTOMER_MSG.userUnknown }]]);
    }
    expect(await count()).toBe(before);
    const created = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, user_id: own } });
    expect([created.statusCode, created.json().data.user_id]).toEqual([201, own]);
    const id = created.json().data.id;
    const moved = await t.app.inject({ method: 'PUT', url: `/t/demo/customers/${id}`, headers: admin, payload: { ...valid, user_id: other } });
    expect([moved.statusCode, moved.json().details]).toEqual([400, [{ field: 'user_id', message: CUSTOMER_MSG.userUnknown }]]);
    expect((await get(`/t/demo/customers/${id}`)).json().data.user_id).toBe(own);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${id}`, headers: admin })).statusCode).toBe(204);
  });

  it('refuses delete to the restricted role with 403 FORBIDDEN', async () => {
    const id = (await get('/t/demo/customers')).json().data[0].id;
    const res = await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${id}`, headers: staff });
    expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
    expect((await get(`/t/demo/customers/${id}`)).statusCode).toBe(200);
  });

  it("hides another tenant's customer and refuses another tenant's path", async () => {
    const demoId = (await get('/t/demo/customers')).json().data[0].id;
    const leak = await get(`/t/abc/customers/${demoId}`, abcAdmin);
    expect([leak.statusCode, leak.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    const del = await t.app.inject({ method: 'DELETE', url: `/t/abc/customers/${demoId}`, headers: abcAdmin });
    expect(del.statusCode).toBe(404);
    const cross = await get(`/t/demo/customers/${demoId}`, abcAdmin);
    expect([cross.statusCode, cross.json().code]).toEqual([401, 'UNAUTHORIZED_TENANT']);
    const write = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: abcAdmin, payload: valid });
    expect(write.statusCode).toBe(401);
    expect((await get('/t/demo/customers')).json().meta.total).toBe(35);
  });

  it('byPhones answers many numbers in one query as byPhone answers each (any stored form, newest customer, own tenant only)', async () => {
    const customers = createCustomersService(t.db);
    const ids = await t.db.withSystem(async (tx) => (await tx.query<{ ma_dn: string; id: number }>("select ma_dn, id from tenants where ma_dn in ('demo', 'abc')")).rows);
    const tenant = (ma: string) => ids.find((r) => r.ma_dn === ma)!.id;
    const make = async (name: string, phone: string) => (await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, name, phone } })).json().data.id as number;
    const older = await make('Khách cũ', '0387000111');
    const newer = await make('Khách mới', '84387000111');
    const other = await make('Khách khác', '0912000222');
    const asked = ['0387000111', '84387000111', '0912000222', '0999000333', 'abc'];
    const batch = await customers.byPhones(tenant('demo'), asked);
    for (const n of asked) expect([n, batch.get(n) ?? null]).toEqual([n, await customers.byPhone(tenant('demo'), n)]);
    expect([...batch].map(([n, c]) => [n, c.id, c.phone]).sort()).toEqual([
      ['0387000111', newer, '0387000111'],
      ['0912000222', other, '0912000222'],
      ['84387000111', newer, '0387000111'],
    ]);
    expect((await customers.byPhones(tenant('abc'), asked)).size).toBe(0);
    expect((await customers.byPhones(tenant('demo'), [])).size).toBe(0);
    for (const id of [older, newer, other]) await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${id}`, headers: admin });
  });

  it('stores a phone as 84… whichever way it was typed, answers and searches it as 0…', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, name: 'Khách số quốc tế', phone: '84387654321' } });
    expect([created.statusCode, created.json().data.phone]).toEqual([201, '0387654321']);
    const id = created.json().data.id as number;
    const storedPhone = async () => (await t.db.withSystem((tx) => tx.query<{ phone: string }>('select phone from customers where id = $1', [id]))).rows[0].phone;
    expect(await storedPhone()).toBe('84387654321');
    const updated = await t.app.inject({ method: 'PUT', url: `/t/demo/customers/${id}`, headers: admin, payload: { ...valid, name: 'Khách số quốc tế', phone: '0387654322' } });
    expect([updated.statusCode, updated.json().data.phone, await storedPhone()]).toEqual([200, '0387654322', '84387654322']);
    expect((await get(`/t/demo/customers/${id}`)).json().data.phone).toBe('0387654322');
    // Searched as typed on the screen: the national form, its start, the 84… form.
    for (const q of ['0387654322', '038765', '84387654322', '87654322']) {
      expect([q, (await get(`/t/demo/customers?search=${q}`)).json().data.map((c: { id: number; phone: string }) => [c.id, c.phone])]).toEqual([q, [[id, '0387654322']]]);
    }
    await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${id}`, headers: admin });
  });

  it('finds the customer a caller ID belongs to, in any form of the number; null when nobody has it', async () => {
    const [first] = sampleCustomers(1);
    const national = first.phone.slice(1);
    for (const callerId of [first.phone, `84${national}`, `+84${national}`]) {
      const res = await get(`/t/demo/customers/by-phone/${encodeURIComponent(callerId)}`, staff);
      expect([res.statusCode, res.json().data]).toEqual([200, expect.objectContaining({ name: first.name, code: first.code, phone: first.phone, email: first.email, status: first.status, note: first.note })]);
    }
    // One phone rule (ADR 0016): both records hold the number as 84…, so every form finds the newest.
    const twin = await t.app.inject({ method: 'POST', url: '/t/demo/customers', headers: admin, payload: { ...valid, name: 'Khách cùng số', phone: `84${national}` } });
    expect((await get(`/t/demo/customers/by-phone/84${national}`)).json().data.id).toBe(twin.json().data.id);
    expect((await get(`/t/demo/customers/by-phone/${first.phone}`)).json().data.id).toBe(twin.json().data.id);
    await t.app.inject({ method: 'DELETE', url: `/t/demo/customers/${twin.json().data.id}`, headers: admin });

    expect((await get('/t/demo/customers/by-phone/0999999999')).json()).toEqual({ data: null });
    expect((await get('/t/demo/customers/by-phone/101')).json()).toEqual({ data: null });
    // Another tenant's customer is not found (RLS), and another tenant's path is refused.
    expect((await get(`/t/abc/customers/by-phone/${first.phone}`, abcAdmin)).json()).toEqual({ data: null });
    expect((await get(`/t/demo/customers/by-phone/${first.phone}`, abcAdmin)).statusCode).toBe(401);
    const bad = await get('/t/demo/customers/by-phone/abc');
    expect([bad.statusCode, bad.json().details]).toEqual([400, [{ field: 'phone', message: MSG.phoneFormat }]]);
  });

  it('needs the purchased, unexpired "customer" feature', async () => {
    await t.db.withSystem((tx) => tx.query(`update payment_checks set date_expired = current_date - 2 where tenant_id = (select id from tenants where ma_dn = 'abc')`));
    const res = await get('/t/abc/customers', abcAdmin);
    expect([res.statusCode, res.json().code]).toEqual([403, 'FEATURE_NOT_PURCHASED']);
  });
});
