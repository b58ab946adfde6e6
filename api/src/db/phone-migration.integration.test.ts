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

describe('migration 0013 stores existing customer phones as 84… (PostgreSQL)', () => {
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

  it('rewrites every tenant’s rows exactly as storedForm() does, and nothing else', async () => {
    const tenants = await client.query<{ id: number }>("insert into tenants (ma_dn, name) values ('mot', 'Một'), ('hai', 'Hai') returning id");
    for (const [i, phone] of PHONES.entries()) {
      await client.query("insert into customers (tenant_id, name, phone, status) values ($1, $2, $3, 'new')", [tenants.rows[i % 2].id, `Khách ${i}`, phone]);
    }
    expect(await migrate(inTransaction)).toEqual(['0013_store_phones_84.sql']);
    const { rows } = await client.query<{ name: string; phone: string }>('select name, phone from customers order by id');
    expect(rows.map((r) => r.phone)).toEqual(PHONES.map(storedForm));
    expect(rows.map((r) => r.phone).slice(0, 7)).toEqual(['84912345678', '84912345678', '84912345678', '84387654321', '842438251234', '842438251234', '842438251234']);
  });
});
