import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { storedForm } from '@tongdai/contracts';
import type { Tx } from './db';
import { migrate } from './migrate';
import { inTransaction as inClientTransaction } from './postgres';
import { freshDatabase } from '../../test/helpers';

const MIGRATIONS = join(__dirname, 'migrations');

/** Customer phones as SPEC §5 lets them be written, and the odd ones a storedForm port could get wrong. */
const PHONES = [
  '0912345678', '84912345678', '912345678', '0387654321', '02438251234', '842438251234', '2438251234',
  '19001234', '01900545415', '841800599920', '1800599920', '841234567', '0123456789', '84123456789',
  '084912345678', '1234567', '090123456789',
];

/** A fresh database migrated up to (not including) `first`, the migration under test. */
function databaseBefore(first: string) {
  const db = {} as { client: Client; inTransaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> };
  let drop: () => Promise<void>;
  let before: string;
  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db.client = new Client({ connectionString: fresh.url });
    await db.client.connect();
    db.inTransaction = (fn) => inClientTransaction(db.client, fn);
    before = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < first)) copyFileSync(join(MIGRATIONS, f), join(before, f));
    await migrate(db.inTransaction, before);
  });
  afterAll(async () => {
    await db.client.end();
    await drop();
    rmSync(before, { recursive: true, force: true });
  });
  return db;
}

describe('migration 0013 stores existing phone numbers as 84… (PostgreSQL)', () => {
  const db = databaseBefore('0013');

  it('rewrites every tenant’s customer phones, DIDs (their inbound routes along) and exact blocked numbers as storedForm() does', async () => {
    const tenants = (await db.client.query<{ id: number }>("insert into tenants (ma_dn, name) values ('mot', 'Một'), ('hai', 'Hai') returning id")).rows.map((r) => r.id);
    for (const [i, phone] of PHONES.entries()) {
      await db.client.query("insert into customers (tenant_id, name, phone, status) values ($1, $2, $3, 'new')", [tenants[i % 2], `Khách ${i}`, phone]);
    }
    // DIDs: every written form; '+842873000009' is the same number as '02873000009' (kept: the first one moves).
    const dids = ['02873000001', '+842873000002', '00842873000003', '842873000004', '19001234', '+33142345678', '101', '02873000009', '+842873000009'];
    for (const [i, did] of dids.entries()) await db.client.query('insert into pbx_numbers (tenant_id, number) values ($1, $2)', [tenants[i % 2], did]);
    await db.client.query("insert into pbx_inbounds (tenant_id, did, destination_type, destination_target) values ($1, '02873000001', 'group', '1')", [tenants[0]]);
    const blocked: [string, string][] = [['0912345678', 'exact'], ['+84987654321', 'exact'], ['024', 'prefix'], ['84912', 'prefix'], ['1900', 'prefix'], ['84912345678', 'exact']];
    for (const [number, match] of blocked) await db.client.query("insert into pbx_blocked_numbers (tenant_id, direction, number, match) values ($1, 'in', $2, $3)", [tenants[0], number, match]);

    // 0013 is the first migration this database has not seen (later ones follow it).
    expect((await migrate(db.inTransaction))[0]).toBe('0013_store_phones_84.sql');

    const column = async (sql: string) => (await db.client.query<{ v: string }>(sql)).rows.map((r) => r.v);
    expect(await column('select phone as v from customers order by id')).toEqual(PHONES.map(storedForm));
    expect(await column('select number as v from pbx_numbers order by id')).toEqual([...dids.slice(0, 8).map(storedForm), '+842873000009']);
    expect(await column('select did as v from pbx_inbounds')).toEqual(['842873000001']);
    // The exact 0912345678 becomes 84912345678, which the last row already is: that one is kept as it was.
    expect(await column('select number as v from pbx_blocked_numbers order by id')).toEqual(['0912345678', '84987654321', '024', '84912', '1900', '84912345678']);
  });
});

/** Account, profile and sign-up phones as MobilePhoneSchema lets them be typed, and values from before it. */
const USER_PHONES = ['0912345678', '+84 912 345 678', '0912.345.678', '84987654321', '+84987654321', '0084 387 654 321', '', '12345', '02438251234', ' 0912345678 '];

describe('migration 0024 stores existing account phones as 84… (PostgreSQL)', () => {
  const db = databaseBefore('0024');

  it('rewrites every tenant’s users.phone as storedForm() does, and leaves a missing phone missing', async () => {
    const tenants = (await db.client.query<{ id: number }>("insert into tenants (ma_dn, name) values ('mot', 'Một'), ('hai', 'Hai') returning id")).rows.map((r) => r.id);
    for (const [i, phone] of [...USER_PHONES, null].entries()) {
      await db.client.query("insert into users (tenant_id, username, password_hash, phone) values ($1, $2, 'x', $3)", [tenants[i % 2], `nv${i}`, phone]);
    }

    expect((await migrate(db.inTransaction))[0]).toBe('0024_store_user_phones_84.sql');

    const phones = (await db.client.query<{ phone: string | null }>('select phone from users order by id')).rows.map((r) => r.phone);
    expect(phones).toEqual([...USER_PHONES.map(storedForm), null]);
    expect(phones.slice(0, 3)).toEqual(['84912345678', '84912345678', '84912345678']);
  });
});
