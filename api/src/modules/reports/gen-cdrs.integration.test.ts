import { Client } from 'pg';
import { generateCdrs, type GenResult } from '../../../scripts/gen-cdrs';
import { openDb } from '../../db/open';
import { freshDatabase } from '../../../test/helpers';

/** The CDR generator (api/scripts/gen-cdrs.ts) on a real PostgreSQL: deterministic, realistic, rolled up. */
describe('gen-cdrs (PostgreSQL)', () => {
  let url: string;
  let drop: () => Promise<void>;
  let owner: Client;
  let first: GenResult;
  const fingerprint = async () =>
    (await owner.query<{ n: number; h: string }>(
      `select count(*)::int as n, md5(string_agg(concat_ws('|', call_id, caller, callee, direction, extension, queue_id is null, started_at, billsec, disposition), ',' order by call_id)) as h from cdrs`,
    )).rows[0];

  beforeAll(async () => {
    const fresh = await freshDatabase();
    [url, drop] = [fresh.url, fresh.drop];
    first = await generateCdrs({ url, rows: 4000, seed: 7, days: 10, end: '2026-11-02' });
    owner = new Client({ connectionString: url });
    await owner.connect();
  }, 120_000);
  afterAll(async () => {
    await owner?.end();
    await drop?.();
  });

  it('writes the same rows for the same seed, replacing a previous run', async () => {
    const before = await fingerprint();
    expect(before.n).toBe(4000);
    await generateCdrs({ url, rows: 4000, seed: 7, days: 10, end: '2026-11-02' });
    expect(await fingerprint()).toEqual(before);
    expect(first.tenants.map((t) => t.rows)).toEqual([3400, 200, 200, 200]);
  }, 60_000);

  it('leaves every index of cdrs as the migrations made it (dropped around the COPY, built again after)', async () => {
    const indexes = async (c: { query: Client['query'] }) =>
      (await c.query<{ def: string }>(`select pg_get_indexdef(indexrelid) as def from pg_index where indrelid = 'cdrs'::regclass order by 1`)).rows.map((r) => r.def);
    const made = await freshDatabase();
    await (await openDb({ databaseUrl: made.url })).close(); // migrated only
    const untouched = new Client({ connectionString: made.url });
    await untouched.connect();
    try {
      const expected = await indexes(untouched);
      expect(expected.length).toBeGreaterThan(5);
      expect(await indexes(owner)).toEqual(expected);
      // …and on every month's partition too.
      const { rows } = await owner.query<{ part: string; n: number }>(
        `select c.relname as part, count(*)::int as n from pg_inherits h join pg_class c on c.oid = h.inhrelid join pg_index i on i.indrelid = c.oid
          where h.inhparent = 'cdrs'::regclass group by c.relname`,
      );
      for (const r of rows) expect(r.n).toBe(expected.length);
    } finally {
      await untouched.end();
      await made.drop();
    }
  });

  it('dials Vietnamese numbers, mostly in office hours (Vietnam time), over month partitions', async () => {
    const { rows } = await owner.query<{ caller: string; h: number; part: string }>(
      `select caller, extract(hour from started_at at time zone 'Asia/Ho_Chi_Minh')::int as h, tableoid::regclass::text as part from cdrs where direction = 'inbound'`,
    );
    for (const r of rows) expect(r.caller).toMatch(/^(0(9[0-9]|3[2-9]|7[06-9]|8[1-9]|5[689])\d{7}|02[48]\d{8})$/);
    const office = rows.filter((r) => r.h >= 8 && r.h < 18).length / rows.length;
    expect(office).toBeGreaterThan(0.75);
    expect(new Set(rows.map((r) => r.part))).toEqual(new Set(['cdrs_202610', 'cdrs_202611']));
  });

  it('fills the rollups with exactly the raw records, per tenant (and per queue)', async () => {
    const { rows } = await owner.query<{ tenant_id: number; raw: number; talk: number; hourly: number; htalk: number; daily: number; dbusy: number; busy: number; queued: number; dqueue: number }>(
      `select c.tenant_id, count(*)::int as raw, sum(c.billsec)::int as talk, count(*) filter (where disposition = 'BUSY')::int as busy,
         count(*) filter (where queue_id is not null)::int as queued,
         (select sum(calls) from cdr_daily_queue d where d.tenant_id = c.tenant_id and not (direction = 'internal' and leg = 'in'))::int as dqueue,
         (select sum(calls) from cdr_hourly h where h.tenant_id = c.tenant_id and not (direction = 'internal' and leg = 'in'))::int as hourly,
         (select sum(billsec) from cdr_hourly h where h.tenant_id = c.tenant_id and not (direction = 'internal' and leg = 'in'))::int as htalk,
         (select sum(calls) from cdr_daily d where d.tenant_id = c.tenant_id and not (direction = 'internal' and leg = 'in'))::int as daily,
         (select sum(busy) from cdr_daily d where d.tenant_id = c.tenant_id and not (direction = 'internal' and leg = 'in'))::int as dbusy
       from cdrs c group by c.tenant_id order by c.tenant_id`,
    );
    expect(rows).toHaveLength(4);
    for (const r of rows) expect([r.hourly, r.htalk, r.daily, r.dbusy, r.dqueue]).toEqual([r.raw, r.talk, r.raw, r.busy, r.raw]);
    expect(rows.every((r) => r.queued > 0 && r.queued < r.raw)).toBe(true);
  });
});
