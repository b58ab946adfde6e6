import { foldText } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { listCustomers } from './customers.repository';
import { sampleCustomers } from '../../db/seed-data';
import { DEMO } from '../../db/seed';
import { buildServer } from '../../server';
import { bearer, demoHeaders, explaining, login, startTestApp, type TestApp } from '../../../test/helpers';
import { openPgliteFromImage } from '../../../test/pglite-image';

type Json = Record<string, string>;
const SEED = sampleCustomers(35);
/** The seeded customers a search must find: the query inside a searched field, accents and case ignored. */
const expected = (q: string) =>
  SEED.filter((c) => [c.name, c.phone, c.code ?? '', c.email ?? ''].some((f) => foldText(f).includes(foldText(q))))
    .map((c) => c.name)
    .sort();
const names = (body: { data: Json[] }) => body.data.map((c) => c.name).sort();

/** "huong" finds "Hương", "duc" finds "Đức": every list search ignores Vietnamese accents and case. */
describe('accent-insensitive search (PostgreSQL)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = async (url: string) => (await t.app.inject({ url, headers: admin })).json();

  it('customers: typed without accents, or in capitals, finds the accented names', async () => {
    // Every "Hương" without an e-mail to match as well: found by the name alone.
    expect(expected('huong').length).toBeGreaterThan(0);
    for (const q of ['huong', 'HƯƠNG', 'thi huong']) expect([q, names(await get(`/t/demo/customers?per_page=100&search=${encodeURIComponent(q)}`))]).toEqual([q, expected(q)]);
    // đ/Đ fold to d.
    const duc = names(await get('/t/demo/customers?per_page=100&search=duc'));
    expect(duc).toEqual(expected('duc'));
    expect(duc.some((n) => n.includes('Đức') || n.startsWith('Đặng') || n.startsWith('Đỗ'))).toBe(true);
  });

  it('every other list: accounts, roles, departments, branches, subscribers, PBX objects', async () => {
    const found = async (url: string, q: string) => (await get(`${url}${url.includes('?') ? '&' : '?'}search=${encodeURIComponent(q)}`)).data as Json[];
    expect((await found('/t/demo/accounts', 'quan tri')).map((a) => a.full_name)).toEqual(['Quản trị viên']);
    const role = await t.app.inject({ method: 'POST', url: '/t/demo/role', headers: admin, payload: { name: 'Trưởng ca', description: 'Điều phối đêm' } });
    expect(role.statusCode).toBe(201);
    expect((await found('/t/demo/roles', 'truong ca')).map((r) => r.name)).toEqual(['Trưởng ca']);
    expect((await found('/t/demo/roles', 'dieu phoi')).map((r) => r.name)).toEqual(['Trưởng ca']);
    expect((await found('/t/demo/departments', 'cham soc')).map((d) => d.name)).toEqual(['Phòng Chăm sóc khách hàng']);
    expect((await found('/t/demo/branches', 'ha noi')).map((d) => d.name)).toEqual(['Chi nhánh Hà Nội']);
    expect((await found('/t/demo/subscribers', 'nhan vien tong dai')).map((s) => s.extension)).toEqual(['102']);
    const pbx = await t.app.inject({ method: 'POST', url: '/pbx/partner/group-inbounds?CodeCompany=demo', headers: admin, payload: { name: 'Nhóm Đặc biệt', extensions: ['101'] } });
    expect(pbx.statusCode).toBe(201);
    expect((await found('/pbx/partner/group-inbounds?CodeCompany=demo', 'dac biet')).map((g) => g.name)).toEqual(['Nhóm Đặc biệt']);
  });

  it('the customer search, as the API runs it under RLS, compares the stored folded text: no fold() of each row', async () => {
    const plans: string[] = [];
    await t.db.withTenant(1, async (tx) => {
      await listCustomers(explaining(tx, plans), { search: '0912', page: 1, per_page: 10, status: '' } as never, '84912');
    });
    expect(plans[0]).toMatch(/Filter: .*search_text ~~/);
    expect(plans[0]).not.toMatch(/translate\((name|phone|code|email)\b/);
  });

  it('the customer search can use the trigram index on the folded name', async () => {
    const plan = await t.db.withSystem(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>("explain select id from customers where fold(name) like fold('%huong%')");
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('customers_name_fold_trgm');
  });
});

describe('accent-insensitive search (PGlite, the default engine)', () => {
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openPgliteFromImage('seeded');
    app = await buildServer({ db, jwtSecret: 'pglite-accent-secret-pglite-accent-secret' });
  }, 180_000); // the run's seeded PGlite image (test/pglite-image.ts): made by the first suite that asks (migrations and seed, 72 s in a loaded CI run), then a start from it
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('finds "Hương" for "huong" and Đ names for "duc" with the same migration', async () => {
    const headers = bearer(await login(app, DEMO.tenants.demo, DEMO.admin));
    for (const q of ['huong', 'duc']) {
      const body = (await app.inject({ url: `/t/demo/customers?per_page=100&search=${q}`, headers })).json();
      expect([q, names(body)]).toEqual([q, expected(q)]);
    }
  });
});
