import * as v from 'valibot';
import { readSheet } from 'read-excel-file/node';
import { CALL_REPORT_EXPORT_HEADERS, callReportCells, CallReportQuerySchema, type CallReportRow } from '@tongdai/contracts';
import { csvFile, xlsxFile } from '../../http/export-files';
import type { Db, Queryable } from '../../db/db';
import { openDb } from '../../db/open';
import { generateCdrs, type GenResult } from '../../../scripts/gen-cdrs';
import { freshDatabase } from '../../../test/helpers';
import { readRecord } from './call-history.repository';
import { createCallHistoryService } from './call-history.service';

/**
 * Exports at more than one page (ADR 0029), on generated records with customers and masking on:
 * the export's lines are exactly the rows the keyset pages of the screen show, in order, for any
 * filter, as CSV and as XLSX; it reads at most two pages ahead of what was taken (memory stays
 * flat) and stops reading when the download is cancelled. A page comes as PostgreSQL's record
 * text, read back exactly whatever its values hold.
 */
let db: Db;
let drop: () => Promise<void>;
let gen: GenResult;
const viewer = () => ({ tenantId: gen.tenants[0].id, userId: 0, wholeTenant: true });
const query = (q: Record<string, string>) => v.parse(CallReportQuerySchema, { from: '2026-10-30', to: '2026-11-01', ...q });

/** Every row the screen's keyset pages show for the query, as export cells. */
async function screenCells(q: Record<string, string>): Promise<string[][]> {
  const history = createCallHistoryService(db);
  const out: string[][] = [];
  let cursor = '';
  do {
    const page = (await history.list(viewer(), query({ ...q, per_page: '100', cursor }))) as { data: CallReportRow[]; next: string | null };
    out.push(...page.data.map(callReportCells));
    cursor = page.next ?? '';
  } while (cursor);
  return out;
}

async function exportCells(q: Record<string, string>, dbOf: Db = db): Promise<string[][]> {
  const out: string[][] = [];
  for await (const page of await createCallHistoryService(dbOf).exportPages(viewer(), query(q))) out.push(...page.cells());
  return out;
}

/** The CSV file the export sends (its fast path: lines straight to CSV), and its page sizes. */
async function exportCsv(q: Record<string, string>, exportPage?: number): Promise<{ text: string; pages: number[] }> {
  const pages: number[] = [];
  const source = await createCallHistoryService(db, { exportPage }).exportPages(viewer(), query(q));
  const counted = (async function* () {
    for await (const page of source) yield (pages.push(page.length), page);
  })();
  const parts: Buffer[] = [];
  for await (const chunk of csvFile(CALL_REPORT_EXPORT_HEADERS, counted)) parts.push(Buffer.from(chunk));
  return { text: Buffer.concat(parts).toString('utf8'), pages };
}

/** The same cells through the generic writer (plain pages of cells): what every other report's CSV is. */
async function csvOfCells(cells: string[][]): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of csvFile(CALL_REPORT_EXPORT_HEADERS, (async function* () { yield cells; })())) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  gen = await generateCdrs({ url: fresh.url, rows: 14_000, seed: 11, days: 3, end: '2026-11-02' });
  db = await openDb({ databaseUrl: fresh.url });
  const tenant = gen.tenants[0].id;
  await db.withSystem(async (tx) => {
    // Numbers shown masked; one outside number in 7 is a customer, stored as the API stores it (84…, ADR 0016).
    await tx.query(
      `insert into system_settings (tenant_id, hidden_phone_customer, position_hidden_phone_customer) values ($1, 1, 3)
       on conflict (tenant_id) do update set hidden_phone_customer = 1, position_hidden_phone_customer = 3`,
      [tenant],
    );
    await tx.query(
      `insert into customers (tenant_id, name, phone, status)
       select $1, 'Khách ' || n, case when n like '0%' then '84' || substr(n, 2) else n end, 'customer' from (
         select distinct case when direction = 'inbound' then caller else callee end as n
           from cdrs where tenant_id = $1 and direction in ('inbound', 'outbound')) x
       where hashtext(n) % 7 = 0`,
      [tenant],
    );
    // Names a CSV must quote or defuse (a comma, a quote, a formula), on numbers that called.
    await tx.query(
      `update customers set name = (array['Nguyễn, Văn "Ba"', '=HYPERLINK("x")', '-Trần Thị Bốn', 'Lê @Năm'])[1 + id % 4]
        where id in (select id from customers where tenant_id = $1 order by id limit 40)`,
      [tenant],
    );
  });
}, 180_000);
afterAll(async () => {
  await db?.close();
  await drop?.();
});

describe('report exports over many pages (PostgreSQL)', () => {
  it('holds exactly the rows of the keyset pages, masked, with customers, in order (over two pages of lines)', async () => {
    const exported = await exportCells({});
    expect(exported.length).toBeGreaterThan(5000);
    expect(exported).toEqual(await screenCells({}));
    // Masked as on screen, customers found from the records' 0… numbers.
    expect(exported.some((c) => c[12] !== '')).toBe(true);
    expect(exported.filter((c) => c[1] === 'Gọi vào').every((c) => c[2].includes('*'))).toBe(true);
  }, 120_000);

  it.each([
    [{ direction: 'inbound', result: 'no_answer' }],
    [{ extension: '1007' }],
    [{ search: '09' }],
    [{ direction: 'outbound', result: 'answered', to: '2026-10-30' }],
  ])('holds the same rows as the screen for %j', async (q) => {
    const exported = await exportCells(q);
    expect(exported.length).toBeGreaterThan(0);
    expect(exported).toEqual(await screenCells(q));
  }, 120_000);

  it('writes as CSV exactly the cells of the rows, across page boundaries (pages of 5000 and of 997)', async () => {
    const cells = await exportCells({});
    const want = await csvOfCells(cells);
    // The quoting and defusing are exercised.
    expect(want).toContain(',"Nguyễn, Văn ""Ba"""\r\n');
    expect(want).toContain(`,"'=HYPERLINK(""x"")"\r\n`);
    expect(want).toContain(",'-Trần Thị Bốn\r\n");
    const big = await exportCsv({});
    expect(big.pages.length).toBeGreaterThan(1);
    expect(big.pages.slice(0, -1).every((n) => n === 5000)).toBe(true);
    expect(big.text).toBe(want);
    const small = await exportCsv({}, 997);
    expect(small.pages.length).toBe(Math.ceil(cells.length / 997));
    expect(small.pages.slice(0, -1).every((n) => n === 997)).toBe(true);
    expect(small.text).toBe(want);
    // A filter across small pages too.
    const filtered = await exportCsv({ direction: 'inbound', result: 'no_answer' }, 301);
    expect(filtered.pages.length).toBeGreaterThan(2);
    expect(filtered.text).toBe(await csvOfCells(await screenCells({ direction: 'inbound', result: 'no_answer' })));
  }, 120_000);

  it('writes as XLSX exactly the cells of the rows, across page boundaries', async () => {
    const cells = await exportCells({});
    const source = await createCallHistoryService(db, { exportPage: 4000 }).exportPages(viewer(), query({}));
    const parts: Buffer[] = [];
    for await (const chunk of xlsxFile('Lịch sử cuộc gọi', CALL_REPORT_EXPORT_HEADERS, source)) parts.push(Buffer.from(chunk));
    const sheet = (await readSheet(Buffer.concat(parts), { trim: false })).map((row) => row.map((c) => (c === null ? '' : String(c))));
    expect(sheet[0]).toEqual([...CALL_REPORT_EXPORT_HEADERS]);
    expect(sheet.slice(1)).toEqual(cells);
  }, 120_000);

  it('reads PostgreSQL’s record text back to the values, whatever they hold', async () => {
    const values = [null, '', 'a', 'a,b', 'x"y', 'back\\slash', '(p)', ' lead', 'line\nbreak\r\n', '))', '"', '\\', 'Nguyễn Văn Ánh', '[{"type": "ivr", "name": "IVR \\"chào\\""}]', '\t'];
    const { rows } = await db.query<{ r: string }>(`select row(${values.map((_, i) => `$${i + 1}::text`).join(', ')})::text as r from generate_series(1, 2)`, values);
    const f = new Array<string | null>(values.length).fill('unread');
    for (const { r } of rows) {
      readRecord(r, f);
      expect(f).toEqual(values);
    }
  });

  it('reads at most two pages ahead of what was taken, and nothing once cancelled', async () => {
    let pages = 0;
    const counting: Db = {
      ...db,
      withTenant: (tenantId, fn) => db.withTenant(tenantId, (tx) => fn({ query: (sql, params) => ((/from cdrs/.test(sql) && pages++), tx.query(sql, params)) } as Queryable)),
    };
    const it = await createCallHistoryService(counting, { exportPage: 1000 }).exportPages(viewer(), query({}));
    const first = await it.next();
    expect(first.value).toHaveLength(1000);
    // The page given; the next one read meanwhile (and its customers looked up), and the one after it —
    // as soon as the database answers (a loaded run, ci2 of the twenty-third session, took over 300 ms) —
    // and no further, however long the reader waits.
    for (const end = Date.now() + 15_000; pages < 3 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    expect(pages).toBe(3);
    await it.return(undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(pages).toBe(3);
    expect((await it.next()).done).toBe(true);
  });
});
