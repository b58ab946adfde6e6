import type { Db, Queryable } from '../../db/db';
import { openDb } from '../../db/open';
import { seed } from '../../db/seed';
import { freshDatabase } from '../../../test/helpers';
import { DISPOSITIONS, type CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { callSeries, departmentTeamSummary, extensionSummary, ReportRangeError, totals, vnDays } from './read-model';
import { openPgliteFromImage } from '../../../test/pglite-image';

/** A small seeded generator (mulberry32): the same set every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTS = ['101', '102', '103'];
// 2026-03-30 00:00 Vietnam time: three days over a month end (a partition boundary) and two midnights.
const START = Date.parse('2026-03-29T17:00:00Z');

function generate(tenantId: number, n: number, seedNo: number): CdrRow[] {
  const r = rng(seedNo);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: n }, (_, i) => {
    const direction = pick(['inbound', 'outbound', 'internal'] as const);
    const disposition = pick(DISPOSITIONS);
    const started = new Date(START + Math.floor(r() * 3 * 86_400) * 1000);
    const wait = Math.floor(r() * 30);
    const talk = disposition === 'ANSWERED' ? Math.floor(r() * 600) : 0;
    const answered = disposition === 'ANSWERED' ? new Date(started.getTime() + wait * 1000) : null;
    const caller = direction === 'inbound' ? `09${String(Math.floor(r() * 1e8)).padStart(8, '0')}` : pick(EXTS);
    const callee = direction === 'outbound' ? `028${String(Math.floor(r() * 1e8)).padStart(8, '0')}` : pick(EXTS);
    return {
      tenant_id: tenantId, call_id: `t${tenantId}-${i}`, caller, callee, did: null, direction, route: [], ring_group_id: null,
      queue_id: r() < 0.3 ? 7 : null, extension: answered && direction !== 'outbound' ? pick(EXTS) : null, trunk: null,
      started_at: started, answered_at: answered, ended_at: new Date(started.getTime() + (wait + talk) * 1000),
      duration: wait + talk, billsec: talk, disposition, sip_code: null, reason: '',
    };
  });
}

/** Per-extension figures computed straight from the records, by the rules read-model.ts states. */
function expectedByExtension(rows: CdrRow[], from: number, to: number) {
  const out = new Map<string, { calls: number; calls_in: number; calls_out: number; calls_internal: number; answered: number; missed: number; busy: number; talk_sec: number }>();
  const add = (ext: string, row: CdrRow) => {
    const e = out.get(ext) ?? { calls: 0, calls_in: 0, calls_out: 0, calls_internal: 0, answered: 0, missed: 0, busy: 0, talk_sec: 0 };
    e.calls++;
    if (row.direction === 'inbound') e.calls_in++;
    if (row.direction === 'outbound') e.calls_out++;
    if (row.direction === 'internal') e.calls_internal++;
    if (row.disposition === 'ANSWERED') e.answered++;
    if (row.disposition === 'NO ANSWER') e.missed++;
    if (row.disposition === 'BUSY') e.busy++;
    e.talk_sec += row.billsec;
    out.set(ext, e);
  };
  for (const row of rows) {
    const t = row.started_at.getTime();
    if (t < from || t >= to) continue;
    if (row.direction !== 'inbound') add(row.caller, row);
    if (row.direction !== 'outbound') {
      const ext = row.extension ?? (row.direction === 'internal' ? row.callee : '');
      if (ext) add(ext, row);
    }
  }
  return out;
}

describe('reports read model (PostgreSQL, rollups only)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let demo: number;
  let abc: number;
  let demoRows: CdrRow[];
  let abcRows: CdrRow[];
  const write = async (rows: CdrRow[]) => {
    const writer = new CdrWriter(db, { maxBatch: 150, onError: (err) => { throw err; } });
    for (const row of rows) writer.add(row);
    await writer.flush();
  };
  const asDemo = <T>(fn: (tx: Queryable) => Promise<T>) => db.withTenant(demo, fn);

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = await openDb({ databaseUrl: fresh.url });
    await seed(db);
    const { rows } = await db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'));
    const ids = Object.fromEntries(rows.map((r) => [r.ma_dn, r.id]));
    [demo, abc] = [ids.demo, ids.abc];
    demoRows = generate(demo, 900, 1);
    abcRows = generate(abc, 300, 2);
    await write([...demoRows, ...abcRows]);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('stores the records in month partitions and gives the rollup totals the raw records give', async () => {
    const parts = await db.withSystem((tx) =>
      tx.query<{ part: string; n: number }>('select tableoid::regclass::text as part, count(*)::int as n from cdrs group by 1 order by 1'),
    );
    expect(parts.rows.map((p) => p.part)).toEqual(['cdrs_202603', 'cdrs_202604']);
    const ahead = await db.withSystem((tx) => tx.query<{ t: string | null }>(`select to_regclass('cdrs_202605')::text as t`));
    expect(ahead.rows[0].t).toBe('cdrs_202605');
    const range = vnDays('2026-03-30', '2026-04-01');
    const raw = await asDemo((tx) =>
      tx.query<{ calls: number; answered: number; missed: number; busy: number; talk: number }>(
        `select count(*)::int as calls, count(*) filter (where disposition = 'ANSWERED')::int as answered,
           count(*) filter (where disposition = 'NO ANSWER')::int as missed, count(*) filter (where disposition = 'BUSY')::int as busy,
           sum(billsec)::int as talk from cdrs where started_at >= $1 and started_at < $2`,
        [range.from, range.to],
      ),
    );
    const t = await asDemo((tx) => totals(tx, range));
    expect(raw.rows[0].calls).toBe(900);
    expect({ calls: t.calls, answered: t.answered, missed: t.missed, busy: t.busy, talk: t.talk_sec }).toEqual(raw.rows[0]);
    expect(t.calls_in + t.calls_out + t.calls_internal).toBe(900);
  });

  it('answers a range of whole days (cdr_daily) as its hours add up (cdr_hourly)', async () => {
    const days = vnDays('2026-03-30', '2026-04-01');
    const cut = new Date(days.from.getTime() + 13 * 3_600_000);
    const whole = await asDemo((tx) => extensionSummary(tx, days));
    const [a, b] = await asDemo(async (tx) => [await extensionSummary(tx, { from: days.from, to: cut }), await extensionSummary(tx, { from: cut, to: days.to })]);
    for (const w of whole) {
      const [x, y] = [a, b].map((part) => part.find((e) => e.extension === w.extension));
      expect([w.extension, (x?.calls ?? 0) + (y?.calls ?? 0), (x?.talk_sec ?? 0) + (y?.talk_sec ?? 0), (x?.busy ?? 0) + (y?.busy ?? 0)]).toEqual([w.extension, w.calls, w.talk_sec, w.busy]);
    }
    const rollups = await db.withSystem((tx) =>
      tx.query<{ d: number; h: number }>(`select (select sum(calls) from cdr_daily where tenant_id = $1)::int as d, (select sum(calls) from cdr_hourly where tenant_id = $1)::int as h`, [demo]),
    );
    expect(rollups.rows[0].d).toBe(rollups.rows[0].h);
  });

  it('sums each extension over both ends of its calls, as computed from the records', async () => {
    const range = vnDays('2026-03-31', '2026-03-31');
    const got = await asDemo((tx) => extensionSummary(tx, range));
    const want = expectedByExtension(demoRows, range.from.getTime(), range.to.getTime());
    expect(got.map((g) => g.extension)).toEqual(EXTS);
    for (const g of got) {
      expect({ ext: g.extension, calls: g.calls, calls_in: g.calls_in, calls_out: g.calls_out, calls_internal: g.calls_internal, answered: g.answered, missed: g.missed, busy: g.busy, talk_sec: g.talk_sec })
        .toEqual({ ext: g.extension, ...want.get(g.extension) });
      expect(g.answer_rate).toBeCloseTo(g.answered / g.calls);
      expect(g.avg_talk_sec).toBe(Math.round(g.talk_sec / g.answered));
    }
  });

  it('adds departments and teams up from their accounts’ extensions', async () => {
    const org = await db.withSystem(async (tx) => {
      const t = await tx.query<{ id: number; department_id: number }>('select id, department_id from teams where tenant_id = $1 order by id', [demo]);
      const [a, b] = t.rows;
      await tx.query(`update users u set department_id = $1, team_id = $2 from subscribers s where s.user_id = u.id and s.tenant_id = $3 and s.extension = '101'`, [a.department_id, a.id, demo]);
      await tx.query(`update users u set department_id = $1, team_id = $2 from subscribers s where s.user_id = u.id and s.tenant_id = $3 and s.extension = '102'`, [b.department_id, b.id, demo]);
      return { a, b };
    });
    const range = vnDays('2026-03-30', '2026-04-01');
    const ext = Object.fromEntries((await asDemo((tx) => extensionSummary(tx, range))).map((e) => [e.extension, e]));
    const depts = await asDemo((tx) => departmentTeamSummary(tx, range));
    const teams = depts.flatMap((d) => d.teams);
    expect(teams.find((t) => t.team_id === org.a.id)?.calls).toBe(ext['101'].calls);
    expect(teams.find((t) => t.team_id === org.b.id)?.talk_sec).toBe(ext['102'].talk_sec);
    const sumOf = (d: number) => depts.filter((x) => x.department_id === d).reduce((n, x) => n + x.calls, 0);
    const expected = org.a.department_id === org.b.department_id ? ext['101'].calls + ext['102'].calls : ext['101'].calls;
    expect(sumOf(org.a.department_id)).toBe(expected);
  });

  it('splits days at midnight Vietnam time (17:00 UTC)', async () => {
    const day = vnDays('2026-03-31', '2026-03-31');
    const late = { ...demoRows[0], call_id: 'midnight-a', started_at: new Date('2026-03-31T16:59:59Z'), ended_at: new Date('2026-03-31T17:00:30Z') };
    const early = { ...demoRows[0], call_id: 'midnight-b', started_at: new Date('2026-03-31T17:00:00Z'), ended_at: new Date('2026-03-31T17:00:40Z') };
    const before = await asDemo((tx) => callSeries(tx, { ...vnDays('2026-03-30', '2026-04-01'), bucket: 'day' }));
    await write([late, early]);
    const after = await asDemo((tx) => callSeries(tx, { ...vnDays('2026-03-30', '2026-04-01'), bucket: 'day' }));
    expect(after.map((p) => p.at)).toEqual(['2026-03-29T17:00:00.000Z', '2026-03-30T17:00:00.000Z', '2026-03-31T17:00:00.000Z']);
    expect(after.map((p, i) => p.calls - before[i].calls)).toEqual([0, 1, 1]);
    const hours = await asDemo((tx) => callSeries(tx, { ...day, bucket: 'hour' }));
    expect(hours).toHaveLength(24);
    expect(hours.reduce((n, h) => n + h.calls, 0)).toBe(after[1].calls);
  });

  it('does not count a record written again (same call, even with another start)', async () => {
    const range = vnDays('2026-03-30', '2026-04-01');
    const before = await asDemo((tx) => totals(tx, range));
    await write(demoRows.slice(0, 200));
    await write([{ ...demoRows[5], started_at: new Date(demoRows[5].started_at.getTime() + 1000) }]);
    expect(await asDemo((tx) => totals(tx, range))).toEqual(before);
  });

  it('keeps tenants apart: totals, extensions, and nothing without a tenant', async () => {
    const range = vnDays('2026-03-30', '2026-04-01');
    expect((await db.withTenant(abc, (tx) => totals(tx, range))).calls).toBe(abcRows.length);
    for (const table of ['cdr_hourly', 'cdr_daily', 'cdr_daily_queue']) {
      const none = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect([table, none.rows[0].n]).toEqual([table, 0]);
    }
    const direct = await db.query<{ n: number }>('select count(*)::int as n from cdrs_202603').catch((e: Error) => e);
    expect(direct).toBeInstanceOf(Error); // a partition is not the app's to read directly
    const scoped = await asDemo((tx) => totals(tx, { ...range, extensions: ['101'] }));
    const ext101 = (await asDemo((tx) => extensionSummary(tx, range))).find((e) => e.extension === '101');
    expect(scoped.calls).toBe(ext101?.calls);
  });

  it('refuses a range that is not whole hours or ends before it starts', async () => {
    const bad = asDemo((tx) => totals(tx, { from: new Date('2026-03-30T00:30:00Z'), to: new Date('2026-03-31T00:00:00Z') }));
    await expect(bad).rejects.toBeInstanceOf(ReportRangeError);
    const backwards = asDemo((tx) => totals(tx, { from: new Date('2026-03-31T00:00:00Z'), to: new Date('2026-03-30T00:00:00Z') }));
    await expect(backwards).rejects.toBeInstanceOf(ReportRangeError);
  });
});

describe('reports read model on embedded PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPgliteFromImage('seeded');
  }, 180_000); // the run's seeded PGlite image (test/pglite-image.ts): made by the first suite that asks (migrations and seed, 72 s in a loaded CI run), then a start from it
  afterAll(() => db?.close());

  it('writes records into month partitions and answers from the rollups, once per call', async () => {
    const { rows } = await db.withSystem((tx) => tx.query<{ id: number }>(`select id from tenants where ma_dn = 'demo'`));
    const tenant = rows[0].id;
    const set = generate(tenant, 120, 3);
    const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
    for (const row of [...set, ...set.slice(0, 30)]) writer.add(row);
    await writer.flush();
    const range = vnDays('2026-03-30', '2026-04-01');
    const t = await db.withTenant(tenant, (tx) => totals(tx, range));
    expect([t.calls, t.talk_sec]).toEqual([120, set.reduce((n, r) => n + r.billsec, 0)]);
    const hours = await db.withTenant(tenant, (tx) => callSeries(tx, { ...range, bucket: 'hour' }));
    expect(hours.reduce((n, h) => n + h.calls, 0)).toBe(120);
    const parts = await db.withSystem((tx) => tx.query<{ part: string }>('select distinct tableoid::regclass::text as part from cdrs order by 1'));
    expect(parts.rows.map((p) => p.part)).toEqual(['cdrs_202603', 'cdrs_202604']);
  }, 30_000);
});
