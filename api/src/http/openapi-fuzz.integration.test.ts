import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { Client } from 'pg';
import { multipart } from '@tongdai/testkit/pbx-kit';
import { toneWav } from '@tongdai/testkit/wav';
import { sheetRow, xlsx, xlsxBomb } from '@tongdai/testkit/xlsx-bomb';
import { demoHeaders, startTestApp, type TestApp } from '../../test/helpers';

/**
 * Issue 12 "make it stay closed": every operation of the OpenAPI document gets bad input generated
 * by fast-check, as the demo tenant's admin — wrong types, NUL, huge numbers and strings, null,
 * extra keys, deep nesting — in its query and (for writes) its body, and every endpoint that takes
 * a multipart form gets broken files. The API must never answer 5xx, must answer every refusal with
 * its error body, and a refused request must leave every table as it was (no row inserted or deleted,
 * no updated_at moved: counted by triggers, below). A new endpoint is covered by being in the document. FUZZ_SEED=<n> replays a run;
 * FUZZ_SCALE=<n> runs n times as many cases.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** FUZZ_SCALE=10 runs ten times as many cases (to search locally; CI keeps the default). */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BODY_RUNS = 6 * SCALE;
const QUERY_RUNS = 3 * SCALE;
const UPLOAD_RUNS = 10 * SCALE;
jest.setTimeout(240_000);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  method: Method;
  path: string;
}
type Json = Record<string, unknown>;

/** Operations that would end the admin's own session or password for the rest of the run. */
const SKIP = new Set(['POST /t/{ma_dn}/logout', 'PUT /t/{ma_dn}/change-password']);

/** Keys any form or list here reads, besides those of the resource's own rows. */
const COMMON_KEYS = [
  'id', 'ids', 'name', 'search', 'page', 'per_page', 'page_size', 'dataType', 'filter_action', 'status', 'user_id', 'role_id',
  'department_id', 'team_id', 'branch_id', 'phone', 'email', 'description', 'ma_dn', 'CodeCompany', 'username', 'password',
  'password_confirmation', 'full_name', 'permissions', 'member_ids', 'extension', 'destination', 'ranges', 'greeting_id',
  'time_group_id', 'extensions', '__proto__', 'constructor',
];

const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: nest(depth - 1, leaf) });

/** Values no field takes as they are (mixed with plausible ones, so a body also gets past the first check). */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(2 ** 31, 2 ** 53, -(2 ** 31) - 1, 1e308, -1, 0, 99999999999999999999),
  fc.constantFrom('99999999999999999999', '-1', '', ' ', '1e309', 'NaN', '0x10', "'; drop table users; --", '%', '../../etc/passwd', '{{7*7}}'),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('ư'.repeat(300_000), 'a'.repeat(70_000)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.integer({ min: 17, max: 120 }).map((d) => nest(d, 'x')),
);

/** Query values are text: the same badness as strings, sometimes repeated (an array). */
const badQueryValue: fc.Arbitrary<string | string[]> = fc.oneof(
  fc.constantFrom('99999999999999999999', '-99999999999999999999', '-1', '0', '', '1e309', 'NaN', 'all', 'null', '[object Object]', '%00', "' or 1=1 --"),
  fc.string().map((s) => `${s}\u0000`),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constant('a'.repeat(5000)),
  fc.array(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 3 }),
);

/**
 * Issue 32, "so the hole stays closed": addresses of the PBX's own internals in the spellings a
 * resolver reads (dotted, decimal, octal, hex, short forms, IPv4-mapped / compatible / NAT64 IPv6,
 * brackets, zone ids), and public addresses on the ports of its own services.
 */
const byte = fc.integer({ min: 0, max: 255 });
const internalIpv4 = fc.oneof(
  fc.tuple(byte, byte, byte).map(([b, c, d]) => [127, b, c, d]),
  fc.tuple(byte, byte).map(([c, d]) => [169, 254, c, d]),
  fc.tuple(byte, byte, byte).map(([b, c, d]) => [0, b, c, d]),
  fc.tuple(fc.integer({ min: 224, max: 255 }), byte, byte, byte).map(([a, b, c, d]) => [a, b, c, d]),
  fc.tuple(byte, byte, byte).map(([b, c, d]) => [10, b, c, d]),
  fc.tuple(byte, byte).map(([c, d]) => [192, 168, c, d]),
);
const asNumber = (q: number[]) => q.reduce((n, b) => n * 256 + b, 0);
const spell = (q: number[], how: number): string => {
  const n = asNumber(q);
  const hex = (x: number) => `0x${x.toString(16)}`;
  const oct = (x: number) => `0${x.toString(8)}`;
  const h4 = (a: number, b: number) => ((a << 8) | b).toString(16);
  return [
    q.join('.'),
    String(n),
    hex(n),
    oct(n),
    q.map(oct).join('.'),
    q.map(hex).join('.'),
    `${q[0]}.${q[1]}.${q[2] * 256 + q[3]}`,
    `${q[0]}.${q[1] * 65536 + q[2] * 256 + q[3]}`,
    `::ffff:${q.join('.')}`,
    `[::ffff:${h4(q[0], q[1])}:${h4(q[2], q[3])}]`,
    `64:ff9b::${q.join('.')}`,
  ][how];
};
const internalHost = fc.oneof(
  fc.tuple(internalIpv4, fc.integer({ min: 0, max: 10 })).map(([q, how]) => spell(q, how)),
  fc.constantFrom('::1', '[::1]', '0:0:0:0:0:0:0:1', '::', 'fe80::1', '[fe80::abcd%eth0]', 'ff02::1', 'fd00::1'),
);

describe('bad input generated from the OpenAPI document (fast-check, seed printed on failure)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let operations: Operation[];
  const send = (opts: InjectOptions) => t.app.inject({ ...opts, headers: { ...admin, ...(opts.headers as Record<string, string>) } });
  /** Rows written so far in every table but the sessions (a login adds one): see `countWrites`. */
  const snapshot = async () => (await t.db.query<{ n: string }>('select n from fuzz_writes')).rows[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await demoHeaders(t.app)).admin;
    await t.app.ready();
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .map((m) => ({ method: m.toUpperCase() as Method, path }))
        .filter((op) => !SKIP.has(`${op.method} ${op.path}`)),
    );
    await countWrites(t.dbUrl);
  });
  afterAll(() => t.close());

  /**
   * A committed write anywhere moves one counter: a row inserted or deleted in any table but the
   * sessions, or an update that moves a row's updated_at (triggers, as the database's owner). A
   * rolled-back write moves nothing, as it leaves nothing. One row read per check, where counting
   * every table's rows twice per request made the suite slower with each table added (471 s, over
   * its 240 s timeout, on a loaded machine once the campaign, DNC and OTP tables came).
   */
  async function countWrites(url: string): Promise<void> {
    const owner = new Client({ connectionString: url });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ name: string; stamped: boolean }>(
        `select c.relname as name, exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'updated_at' and not a.attisdropped) as stamped
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
            and c.relname not in ('sessions', 'schema_migrations')`,
      );
      await owner.query(`
        create table fuzz_writes (n bigint not null);
        insert into fuzz_writes values (0);
        create function fuzz_rows() returns trigger language plpgsql security definer as $$
          begin update fuzz_writes set n = n + 1; return null; end $$;
        create function fuzz_stamped() returns trigger language plpgsql security definer as $$
          begin if new.updated_at is distinct from old.updated_at then update fuzz_writes set n = n + 1; end if; return null; end $$;
        grant select on fuzz_writes to app_user;`);
      for (const r of rows) {
        await owner.query(`create trigger fuzz_rows after insert or delete on "${r.name}" for each row execute function fuzz_rows()`);
        if (r.stamped) await owner.query(`create trigger fuzz_stamped after update on "${r.name}" for each row execute function fuzz_stamped()`);
      }
    } finally {
      await owner.end();
    }
  }

  /** An id of a row the collection above `path` lists (not the admin's own account), else 1. */
  async function rowIdFor(collection: string): Promise<number> {
    const res = await send({ method: 'GET', url: `${collection}${collection.includes('?') ? '&' : '?'}dataType=all` });
    const data = res.statusCode === 200 ? (res.json() as { data?: unknown }).data : undefined;
    const rows = Array.isArray(data) ? (data as Json[]) : [];
    const pick = rows.find((r) => r.username !== 'admin') ?? rows[0];
    return typeof pick?.id === 'number' ? pick.id : 1;
  }

  /** The operation's path with real ids (a row to read or change), or ids no row has for deletes. */
  async function concrete(op: Operation): Promise<string> {
    let url = op.path.replace('{ma_dn}', 'demo').replace('{phone}', '0901234567');
    if (op.method === 'DELETE') return url.replace(/\{[^}]+\}/g, '2147483000');
    const id = url.includes('{id}') ? await rowIdFor(url.slice(0, url.indexOf('/{id}'))) : 1;
    url = url.replace('{id}', String(id));
    if (url.includes('{detailId}')) {
      const group = (await send({ method: 'GET', url: url.slice(0, url.indexOf('/ranges')) })).json() as { data?: { ranges?: { id: number }[] } };
      url = url.replace('{detailId}', String(group.data?.ranges?.[0]?.id ?? 1));
    }
    return url;
  }

  /** What a write of this resource looks like: the row it edits, or one the list shows. */
  async function baseBody(op: Operation, url: string): Promise<Json> {
    const source = op.method === 'PUT' || op.method === 'PATCH' ? url : op.path.includes('{') ? null : url;
    if (!source) return {};
    const res = await send({ method: 'GET', url: source });
    if (res.statusCode !== 200) return {};
    const data = (res.json() as { data?: unknown }).data;
    const row = Array.isArray(data) ? data[0] : data;
    if (!row || typeof row !== 'object') return {};
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = row as Json;
    return rest;
  }

  /**
   * Sends one request; the answer must be below 500 and, when a refusal, our error body with
   * nothing written. An accepted request (a bad value a field may well take) moves the baseline.
   */
  async function check(opts: InjectOptions, label: string): Promise<void> {
    const before = await snapshot();
    const res = await send(opts);
    const what = `${label} → ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (res.statusCode >= 500) throw new Error(`5xx: ${what}`);
    if (res.statusCode >= 400) {
      const body = res.json() as { status?: unknown; code?: unknown; message?: unknown };
      if (body.status !== res.statusCode || typeof body.code !== 'string' || typeof body.message !== 'string') throw new Error(`not our error body: ${what}`);
      if ((await snapshot()) !== before) throw new Error(`a refused request wrote: ${what}`);
    }
  }

  /** Runs one property; a failure is collected with its label, seed and counterexample. */
  async function assertAll<T extends unknown[]>(label: string, property: fc.IAsyncProperty<T>, numRuns: number, failures: string[]) {
    const details = await fc.check(property, { seed: SEED, numRuns, endOnFailure: true });
    if (details.failed) failures.push(`${label} (FUZZ_SEED=${SEED}, counterexample ${JSON.stringify(details.counterexample)?.slice(0, 300)}): ${String(details.errorInstance)}`);
  }

  it('never answers 5xx nor writes on a refusal, for any body or query of any operation', async () => {
    expect(operations.length).toBeGreaterThan(150);
    const failures: string[] = [];
    for (const op of operations) {
      const url = await concrete(op);
      const label = `${op.method} ${url}`;
      const query = fc.dictionary(fc.oneof(fc.constantFrom(...COMMON_KEYS), fc.string({ maxLength: 6 })), badQueryValue, { minKeys: 1, maxKeys: 4 });
      await assertAll(
        `${label} query`,
        fc.asyncProperty(query, (q) => check({ method: op.method, url, query: q as Record<string, string | string[]> }, `${label} ?${JSON.stringify(q).slice(0, 200)}`)),
        QUERY_RUNS,
        failures,
      );
      if (op.method === 'GET') continue;
      const base = await baseBody(op, url);
      const keys = [...new Set([...Object.keys(base), ...COMMON_KEYS])];
      const body = fc.oneof(
        // The resource's own row with one or more fields made bad (gets past the other fields' checks).
        fc.dictionary(fc.constantFrom(...keys), badValue, { minKeys: 1, maxKeys: 3 }).map((bad) => ({ ...base, ...bad })),
        // Keys of all kinds, values of all kinds.
        fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 10 })), badValue, { maxKeys: 6 }),
        // Not an object at all.
        fc.constantFrom<unknown>(null, [], [base], 'x', 0, true),
      );
      await assertAll(
        `${label} body`,
        fc.asyncProperty(body, (b) =>
          check(
            { method: op.method, url, payload: JSON.stringify(b), headers: { 'content-type': 'application/json' } },
            `${label} ${JSON.stringify(b)?.slice(0, 200)}`,
          ),
        ),
        BODY_RUNS,
        failures,
      );
    }
    expect(failures).toEqual([]);
  });

  it("never saves a switchboard pointing at the PBX's internals, in any spelling, on any port, nor one on a port of its services (422, nothing written)", async () => {
    const url = '/t/demo/etelecom/switchboards';
    const unwritten = await snapshot();
    const existing = (await send({ method: 'POST', url, payload: { name: 'Fuzz công khai', host: '203.113.131.77', register: false } })).json().data.id as number;
    // The write counter sees a write (else "nothing written" below would hold of anything).
    expect(await snapshot()).not.toBe(unwritten);
    const servicePort = fc.constantFrom(4000, 4001, 5432, 6379);
    const target = fc.oneof(
      fc.record({ host: internalHost, port: fc.integer({ min: 1, max: 65535 }) }),
      fc.record({ host: fc.constantFrom('203.113.131.5', 'sip.carrier.example'), port: servicePort }),
    );
    const failures: string[] = [];
    await assertAll(
      'switchboard hosts',
      fc.asyncProperty(target, fc.constantFrom('udp', 'tcp'), fc.boolean(), async (where, transport, edit) => {
        const before = await snapshot();
        const res = await send({
          method: edit ? 'PUT' : 'POST',
          url: edit ? `${url}/${existing}` : url,
          payload: { name: 'Fuzz nội bộ', ...where, transport, register: false },
        });
        const what = `${JSON.stringify(where)} ${transport} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (res.statusCode !== 422 || res.json().code !== 'SWITCHBOARD_HOST_REFUSED') throw new Error(`not refused: ${what}`);
        if ((await snapshot()) !== before) throw new Error(`a refused switchboard wrote: ${what}`);
      }),
      60 * SCALE,
      failures,
    );
    expect(failures).toEqual([]);
  });

  it('never answers 5xx nor writes on a refusal, for any file sent to an endpoint that reads multipart forms', async () => {
    const goodWav = toneWav(0.5);
    const goodXlsx = xlsx(sheetRow(1, ['did', 'destination_type', 'destination_target']) + sheetRow(2, ['02873000001', 'direct', '101']));
    const mutate = (file: Buffer) =>
      fc.array(fc.tuple(fc.nat({ max: Math.min(file.length - 1, 200) }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).map((edits) => {
        const copy = Buffer.from(file);
        for (const [at, byte] of edits) copy[at] = byte;
        return copy;
      });
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 4096 }).map((a) => Buffer.from(a)),
      fc.nat({ max: goodXlsx.length }).map((n) => goodXlsx.subarray(0, n)),
      mutate(goodXlsx),
      mutate(goodWav),
      fc.nat({ max: 200 }).map((n) => goodWav.subarray(0, n)),
      fc.constantFrom(xlsxBomb(20), xlsxBomb(20, true), Buffer.from('did,destination_type\n\u0000,1\n'), goodWav, goodXlsx),
    );
    const file = fc.record({
      field: fc.constantFrom('file', 'logo', 'other'),
      name: fc.constantFrom('a.wav', 'a.mp3', 'a.xlsx', 'a.csv', 'a.png', 'a.exe', '', '../../x.wav', 'tên tệp.xlsx'),
      type: fc.constantFrom('audio/wav', 'audio/mpeg', 'text/csv', 'image/png', 'application/octet-stream', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
      bytes,
    });
    const fields = fc.dictionary(fc.constantFrom('name', 'moh_class', 'ma_dn', 'CodeCompany', 'x'), fc.oneof(fc.string({ maxLength: 20 }), fc.string().map((s) => `${s}\u0000`), fc.constant('demo')), {
      maxKeys: 4,
    });
    // An endpoint reads multipart forms when a multipart request is not refused as an unsupported type (415).
    const uploads: string[] = [];
    for (const op of operations.filter((o) => o.method === 'POST' || o.method === 'PUT')) {
      const url = await concrete(op);
      const probe = multipart({}, { name: 'a.bin', type: 'application/octet-stream', bytes: Buffer.from('x') });
      if ((await send({ method: op.method, url, payload: probe.payload, headers: probe.headers })).statusCode !== 415) uploads.push(`${op.method} ${url}`);
    }
    expect(uploads).toEqual(expect.arrayContaining(['POST /pbx/importInbound', 'POST /pbx/partner/greeting', 'POST /pbx/partner/moh', 'POST /t/demo/change-info-site']));
    const failures: string[] = [];
    for (const label of uploads) {
      const [method, url] = label.split(' ') as [Method, string];
      await assertAll(
        `${label} upload`,
        fc.asyncProperty(fields, file, (f, part) => {
          const form = multipart(f, part);
          return check({ method, url, payload: form.payload, headers: form.headers }, `${label} ${JSON.stringify(f)} ${part.name} ${part.type} ${part.bytes.length} B`);
        }),
        UPLOAD_RUNS,
        failures,
      );
    }
    expect(failures).toEqual([]);
  });
});
