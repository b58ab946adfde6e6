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

describe('migration 0013 stores existing phone numbers as 84… (PostgreSQL)', () => {
  let client: Client;
  let drop: () => Promise<void>;
  let before: string;
  const inTransaction = <T>(fn: (tx: Tx) => Promise<T>) => inClientTransaction(client, fn);

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    client = new Client({ connectionString: fresh.url });
    await client.connect();
    // The database as it was before 0013.
    before = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < '0013')) copyFileSync(join(MIGRATIONS, f), join(before, f));
    await migrate(inTransaction, before);
  });
  afterAll(async () => {
    await client.end();
    await drop();
    rmSync(before, { recursive: true, force: true });
  });

  it('rewrites every tenant’s customer phones, DIDs (their inbound routes along) and exact blocked numbers as storedForm() does', async () => {
    const tenants = (await client.query<{ id: number }>("insert into tenants (ma_dn, name) values ('mot', 'Một'), ('hai', 'Hai') returning id")).rows.map((r) => r.id);
    for (const [i, phone] of PHONES.entries()) {
      await client.query("insert into customers (tenant_id, name, phone, status) values ($1, $2, $3, 'new')", [tenants[i % 2], `Khách ${i}`, phone]);
    }
    // DIDs: every written form; '+842873000009' is the same number as '02873000009' (kept: the first one moves).
    const dids = ['02873000001', '+842873000002', '00842873000003', '842873000004', '19001234', '+33142345678', '101', '02873000009', '+842873000009'];
    for (const [i, did] of dids.entries()) await client.query('insert into pbx_numbers (tenant_id, number) values ($1, $2)', [tenants[i % 2], did]);
    await client.query("insert into pbx_inbounds (tenant_id, did, destination_type, destination_target) values ($1, '02873000001', 'group', '1')", [tenants[0]]);
    const blocked: [string, string][] = [['0912345678', 'exact'], ['+84987654321', 'exact'], ['024', 'prefix'], ['84912', 'prefix'], ['1900', 'prefix'], ['84912345678', 'exact']];
    for (const [number, match] of blocked) await client.query("insert into pbx_blocked_numbers (tenant_id, direction, number, match) values ($1, 'in', $2, $3)", [tenants[0], number, match]);

    // 0013 is the first migration this database has not seen (later ones follow it).
    expect((await migrate(inTransaction))[0]).toBe('0013_store_phones_84.sql');

    const column = async (sql: string) => (await client.query<{ v: string }>(sql)).rows.map((r) => r.v);
    expect(await column('select phone as v from customers order by id')).toEqual(PHONES.map(storedForm));
    expect(await column('select number as v from pbx_numbers order by id')).toEqual([...dids.slice(0, 8).map(storedForm), '+842873000009']);
    expect(await column('select did as v from pbx_inbounds')).toEqual(['842873000001']);
    // The exact 0912345678 becomes 84912345678, which the last row already is: that one is kept as it was.
    expect(await column('select number as v from pbx_blocked_numbers order by id')).toEqual(['0912345678', '84987654321', '024', '84912', '1900', '84912345678']);
  });
});
