/**
 * Deterministic call-record generator (issue 13, ADR 0022). Seeded: the same options write the
 * same rows. Four tenants (cdrgen1 holds `rows` × 85 %, the others 5 % each) with departments,
 * teams, accounts, extensions and queues; Vietnamese numbers (mobile 09x/03x/07x/08x/05x,
 * landlines 028/024), office-hour peaks in Vietnam time, quieter Saturdays, nearly silent Sundays.
 * Rows go in with COPY FROM STDIN (through psql, no extra client library), then cdr_hourly is
 * filled with one set-based INSERT … SELECT … GROUP BY (the writer's own rollup, cdr-rollup.ts),
 * then cdr_daily and cdr_daily_queue from cdr_hourly.
 *
 *   pnpm --filter @tongdai/api exec tsx scripts/gen-cdrs.ts --url postgres://… --rows 1000000 [--seed 42] [--days 90] [--end 2026-11-01]
 *
 * The URL's user must own the schema (as for migrations). Re-running replaces the generated
 * tenants' records. Accounts get no password and extensions a SIP secret nothing can use.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { openDb } from '../src/db/open';
import type { Db, Queryable } from '../src/db/db';
import { dailyFromHourly, rollupInsert } from '../src/modules/cdr/cdr-rollup';

export interface GenOptions {
  url: string;
  rows: number;
  seed?: number;
  days?: number;
  /** Last Vietnam day of the data (exclusive end at its midnight), 'YYYY-MM-DD'. */
  end?: string;
  log?: (line: string) => void;
}

export interface GenResult {
  tenants: { id: number; ma_dn: string; rows: number }[];
  copyMs: number;
  rollupMs: number;
  from: Date;
  to: Date;
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MOBILE = ['090', '091', '093', '094', '096', '097', '098', '032', '033', '034', '035', '036', '037', '038', '039', '070', '076', '077', '078', '079', '081', '082', '083', '084', '085', '086', '088', '089', '056', '058', '059'];
const LANDLINE = ['028', '024'];
// Calls per hour of a Vietnam day: a morning and an afternoon peak, a lunch dip, a quiet night.
const HOUR_WEIGHT = [1, 0, 0, 0, 0, 1, 2, 6, 14, 20, 22, 18, 9, 11, 19, 21, 17, 12, 6, 4, 3, 2, 1, 1];
const DAY_WEIGHT = [0.08, 1, 1, 1, 1, 1, 0.45]; // Sunday .. Saturday
const DEPARTMENTS = [
  { name: 'Phòng Kinh doanh', teams: ['Nhóm Bán lẻ', 'Nhóm Doanh nghiệp', 'Nhóm Đối tác'] },
  { name: 'Phòng Chăm sóc khách hàng', teams: ['Nhóm Tổng đài viên', 'Nhóm Xử lý khiếu nại', 'Nhóm Hậu mãi'] },
  { name: 'Phòng Kỹ thuật', teams: ['Nhóm Hỗ trợ kỹ thuật', 'Nhóm Triển khai'] },
  { name: 'Phòng Thu hồi nợ', teams: ['Nhóm Nhắc phí', 'Nhóm Pháp lý'] },
];
const QUEUES = ['Hàng đợi CSKH', 'Hàng đợi Bán hàng', 'Hàng đợi Kỹ thuật', 'Hàng đợi VIP', 'Hàng đợi Khiếu nại', 'Hàng đợi Ngoài giờ'];
const GIVEN = ['An', 'Bình', 'Chi', 'Dũng', 'Giang', 'Hà', 'Hải', 'Hạnh', 'Hòa', 'Hùng', 'Hương', 'Khánh', 'Lan', 'Linh', 'Long', 'Mai', 'Minh', 'Nam', 'Ngọc', 'Phương', 'Quân', 'Sơn', 'Thảo', 'Trang', 'Tuấn', 'Vy'];
const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ'];
const COPY_COLUMNS = 'tenant_id, call_id, caller, callee, did, direction, queue_id, extension, trunk, started_at, answered_at, ended_at, duration, billsec, disposition, sip_code, reason';

interface TenantPlan { ma_dn: string; name: string; rows: number; extensions: number }

function plans(rows: number): TenantPlan[] {
  const small = Math.floor(rows * 0.05);
  return [
    { ma_dn: 'cdrgen1', name: 'Công ty CP Viễn thông Sao Việt', rows: rows - 3 * small, extensions: 200 },
    { ma_dn: 'cdrgen2', name: 'Công ty TNHH Bảo hiểm An Phát', rows: small, extensions: 40 },
    { ma_dn: 'cdrgen3', name: 'Ngân hàng TMCP Phương Nam', rows: small, extensions: 60 },
    { ma_dn: 'cdrgen4', name: 'Công ty CP Giao hàng Nhanh Bắc Nam', rows: small, extensions: 25 },
  ];
}

/** The tenant, its organisation, extensions and queues (idempotent); returns ids for the rows. */
async function ensureTenant(tx: Queryable, p: TenantPlan, r: () => number): Promise<{ id: number; queues: number[] }> {
  const t = await tx.query<{ id: number }>(
    'insert into tenants (ma_dn, name, max_user) values ($1, $2, $3) on conflict (ma_dn) do update set name = excluded.name returning id',
    [p.ma_dn, p.name, p.extensions + 10],
  );
  const id = t.rows[0].id;
  await tx.query('delete from cdr_hourly where tenant_id = $1', [id]);
  await tx.query('delete from cdr_daily where tenant_id = $1', [id]);
  await tx.query('delete from cdr_daily_queue where tenant_id = $1', [id]);
  await tx.query('delete from cdrs where tenant_id = $1', [id]);
  const done = await tx.query<{ n: number }>('select count(*)::int as n from subscribers where tenant_id = $1', [id]);
  if (done.rows[0].n < p.extensions) {
    const teams: number[] = [];
    for (const d of DEPARTMENTS) {
      const dep = await tx.query<{ id: number }>('insert into departments (tenant_id, name) values ($1, $2) returning id', [id, d.name]);
      for (const team of d.teams) {
        const tt = await tx.query<{ id: number }>('insert into teams (tenant_id, department_id, name) values ($1, $2, $3) returning id', [id, dep.rows[0].id, team]);
        teams.push(tt.rows[0].id);
      }
    }
    for (let i = 0; i < p.extensions; i++) {
      const ext = String(1000 + i);
      const name = `${FAMILY[Math.floor(r() * FAMILY.length)]} ${GIVEN[Math.floor(r() * GIVEN.length)]}`;
      const team = teams[i % teams.length];
      const u = await tx.query<{ id: number }>(
        `insert into users (tenant_id, username, password_hash, full_name, department_id, team_id)
         select $1, $2, '!', $3, department_id, id from teams where id = $4 returning id`,
        [id, `nv${ext}`, name, team],
      );
      await tx.query(`insert into subscribers (tenant_id, extension, display_name, sip_password, user_id) values ($1, $2, $3, 'v1.generated.unusable', $4)`, [id, ext, name, u.rows[0].id]);
    }
    for (const q of QUEUES) await tx.query('insert into pbx_queues (tenant_id, name, agents) values ($1, $2, $3)', [id, q, []]);
  }
  const q = await tx.query<{ id: number }>('select id from pbx_queues where tenant_id = $1 order by id', [id]);
  return { id, queues: q.rows.map((x) => x.id) };
}

const digits = (r: () => number, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 10);
  return s;
};
const phone = (r: () => number) => (r() < 0.85 ? MOBILE[Math.floor(r() * MOBILE.length)] + digits(r, 7) : LANDLINE[Math.floor(r() * LANDLINE.length)] + digits(r, 8));

/** Cumulative weights of every hour of the range, so a start time is one binary search away. */
function hourTable(from: number, hours: number): Float64Array {
  const cum = new Float64Array(hours);
  let s = 0;
  for (let h = 0; h < hours; h++) {
    const local = new Date(from + h * 3_600_000 + 7 * 3_600_000);
    s += HOUR_WEIGHT[local.getUTCHours()] * DAY_WEIGHT[local.getUTCDay()];
    cum[h] = s;
  }
  return cum;
}

function pickHour(cum: Float64Array, x: number): number {
  const target = x * cum[cum.length - 1];
  let [lo, hi] = [0, cum.length - 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One tenant's rows as COPY text lines, written to `out` with back-pressure. */
async function writeRows(out: NodeJS.WritableStream, t: { id: number; queues: number[] }, p: TenantPlan, r: () => number, from: number, cum: Float64Array) {
  const ts = (ms: number) => new Date(ms).toISOString();
  const hotline = `1900${digits(r, 4)}`;
  let buf = '';
  for (let i = 0; i < p.rows; i++) {
    const start = from + pickHour(cum, r()) * 3_600_000 + Math.floor(r() * 3_600_000);
    const ext = String(1000 + Math.floor(r() * p.extensions));
    const x = r();
    const direction = x < 0.55 ? 'inbound' : x < 0.9 ? 'outbound' : 'internal';
    const d = r();
    const disposition =
      direction === 'inbound'
        ? d < 0.72 ? 'ANSWERED' : d < 0.9 ? 'NO ANSWER' : d < 0.95 ? 'BUSY' : d < 0.98 ? 'FAILED' : 'BLOCKED'
        : d < 0.6 ? 'ANSWERED' : d < 0.85 ? 'NO ANSWER' : d < 0.95 ? 'BUSY' : 'FAILED';
    const queue = direction === 'inbound' && r() < 0.7 ? t.queues[Math.floor(r() * t.queues.length)] : null;
    const wait = direction === 'inbound' ? Math.floor(r() * r() * 90) : Math.floor(3 + r() * 20);
    const talk = disposition === 'ANSWERED' ? Math.floor(10 + r() * r() * 900) : 0;
    const answered = disposition === 'ANSWERED';
    const other = String(1000 + Math.floor(r() * p.extensions));
    const caller = direction === 'inbound' ? phone(r) : ext;
    const callee = direction === 'inbound' ? hotline : direction === 'outbound' ? phone(r) : other;
    const answeredBy = !answered ? '\\N' : direction === 'inbound' ? ext : direction === 'internal' ? other : '\\N';
    const sip = answered ? 200 : disposition === 'BUSY' ? 486 : disposition === 'NO ANSWER' ? 487 : disposition === 'BLOCKED' ? 403 : 503;
    buf += `${t.id}\tgen-${p.ma_dn}-${i}\t${caller}\t${callee}\t${direction === 'inbound' ? hotline : '\\N'}\t${direction}\t${queue ?? '\\N'}\t${answeredBy}\t${
      direction === 'outbound' ? 'viettel' : '\\N'}\t${ts(start)}\t${answered ? ts(start + wait * 1000) : '\\N'}\t${ts(start + (wait + talk) * 1000)}\t${wait + talk}\t${talk}\t${disposition}\t${sip}\t${
      disposition === 'BLOCKED' ? 'Số gọi đến nằm trong danh sách chặn' : ''}\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise((res) => out.once('drain', res));
      buf = '';
    }
  }
  if (buf) out.write(buf);
}

function psql(url: string, sql: string): Promise<void> {
  return psqlCopy(url, async () => undefined, sql);
}

/** COPY through psql: the data on its stdin, as the URL's user. */
function psqlCopy(url: string, fill: (out: NodeJS.WritableStream) => Promise<void>, sql = `copy cdrs (${COPY_COLUMNS}) from stdin`): Promise<void> {
  const child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: ['pipe', 'inherit', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<void>((res, rej) => child.on('close', (code) => (code === 0 ? res() : rej(new Error(`psql copy failed (${code}): ${err}`)))));
  return fill(child.stdin).then(() => {
    child.stdin.end();
    return done;
  });
}

/**
 * Where the rows go: a database to set up and roll up through, a COPY of the rows' text lines
 * (`copy cdrs (COPY_COLUMNS) from …`) and a statistics refresh. PostgreSQL: psql; the bench's
 * PGlite: its /dev/blob.
 */
export interface GenTarget {
  db: Db;
  copy(fill: (out: NodeJS.WritableStream) => Promise<void>): Promise<void>;
  analyze(): Promise<void>;
  /** Statements run in order on one session as the schema's owner (indexes dropped and made). */
  owner(statements: string[]): Promise<void>;
}
export const GEN_COPY_COLUMNS = COPY_COLUMNS;

export async function generateCdrs(o: GenOptions): Promise<GenResult> {
  // A bulk load, not a request: the rollups of 10 M records are single statements of minutes (the
  // API's 15 s bound for a query gave up on them: the whole bench's reports section measured nothing).
  const db = await openDb({ databaseUrl: o.url, queryTimeoutMs: 60 * 60_000 });
  try {
    // VACUUM as well: the visibility map set as autovacuum leaves old months, so index-only reads are measured as they run.
    return await generateInto({ db, copy: (fill) => psqlCopy(o.url, fill), analyze: async () => {
      await psql(o.url, 'vacuum (analyze) cdrs'); // alone: VACUUM runs outside a transaction
      await psql(o.url, 'analyze cdr_hourly; analyze cdr_daily; analyze cdr_daily_queue');
    }, owner: async (statements) => { if (statements.length) await psql(o.url, statements.join(';\n')); } }, o);
  } finally {
    await db.close();
  }
}

/** The generator over any target (the same rows for the same options). */
export async function generateInto(target: GenTarget, o: Omit<GenOptions, 'url'>): Promise<GenResult> {
  const { db } = target;
  const log = o.log ?? (() => undefined);
  const days = o.days ?? 90;
  const to = Date.parse(`${o.end ?? '2026-11-01'}T00:00:00Z`) - 7 * 3_600_000;
  const from = to - days * 86_400_000;
  const r = rng(o.seed ?? 42);
  const ps = plans(o.rows);
  const tenants = await db.withSystem(async (tx) => {
    await tx.query('select cdrs_ensure_months($1, $2)', [new Date(from), new Date(to - 1)]);
    const out: { id: number; queues: number[] }[] = [];
    // Names have their own sequence: the rows stay the same whether or not the org existed.
    const names = rng((o.seed ?? 42) + 1);
    for (const p of ps) out.push(await ensureTenant(tx, p, names));
    return out;
  });
  const cum = hourTable(from, days * 24);
  let t0 = performance.now();
  // Filling millions of rows under ten secondary indexes (a trigram GIN among them) costs many times
  // more than building them after (45 min vs minutes at 10 M): they go, the rows go in, they come back.
  const indexes = await secondaryIndexes(db);
  await target.owner(indexes.map((ix) => `drop index ${ix.name}`));
  await target.copy(async (out) => {
    for (let i = 0; i < ps.length; i++) await writeRows(out, tenants[i], ps[i], r, from, cum);
  });
  const copyMs = performance.now() - t0;
  log(`COPY ${o.rows} rows: ${(copyMs / 1000).toFixed(1)} s`);
  t0 = performance.now();
  await target.owner([`set maintenance_work_mem = '512MB'`, ...indexes.map((ix) => ix.def)]);
  log(`${indexes.length} indexes rebuilt: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  t0 = performance.now();
  const ids = [tenants.map((t) => t.id)];
  // The tenants' rollups were emptied with their records: plain inserts, no conflict handling.
  await db.withSystem(async (tx) => {
    // Hundreds of thousands of groups: a hash aggregate in memory instead of batches on disk.
    await tx.query(`set local work_mem = '256MB'`);
    await tx.query(rollupInsert('(select * from cdrs where tenant_id = any($1::int[]))', 'hour', false), ids);
    await tx.query(dailyFromHourly('tenant_id = any($1::int[])'), ids);
    await tx.query(dailyFromHourly('tenant_id = any($1::int[])', 'dayQueue'), ids);
  });
  const rollupMs = performance.now() - t0;
  log(`rollup: ${(rollupMs / 1000).toFixed(1)} s`);
  await target.analyze();
  return { tenants: tenants.map((t, i) => ({ id: t.id, ma_dn: ps[i].ma_dn, rows: ps[i].rows })), copyMs, rollupMs, from: new Date(from), to: new Date(to) };
}

/**
 * cdrs' indexes that back no constraint, with the statements that make them again (on the
 * partitioned parent: dropping it drops every month's, creating it builds every month's).
 */
async function secondaryIndexes(db: Db): Promise<{ name: string; def: string }[]> {
  const { rows } = await db.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid = 'cdrs'::regclass and not i.indisunique and not i.indisprimary
      order by 1`,
  );
  return rows.map((r) => ({ name: r.name, def: r.def.replace(' ON ONLY ', ' ON ') }));
}

/** The rows each generated tenant gets for `rows` in all (cdrgen1 first), to tell whether a database already holds a run. */
export const plannedRows = (rows: number): { ma_dn: string; rows: number }[] => plans(rows).map(({ ma_dn, rows: n }) => ({ ma_dn, rows: n }));

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const url = arg('url') ?? process.env.DATABASE_URL;
  if (!url) throw new Error('--url postgres://… (or DATABASE_URL) is required');
  generateCdrs({ url, rows: Number(arg('rows') ?? 100_000), seed: Number(arg('seed') ?? 42), days: Number(arg('days') ?? 90), end: arg('end'), log: console.log })
    .then((res) => console.log(JSON.stringify(res.tenants)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
