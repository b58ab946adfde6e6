import type { CallReportOptions, SwitchboardCarrier } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { cdrConditions as conditions, listTenantCdrLines, type CdrRangeQuery, type LineKey } from '../cdr/cdr.service';
import { userExtensionSql } from '../subscribers/subscribers.service';

/**
 * The directory a call-history page needs beside its call records: who uses each extension,
 * which extensions sit in a department or team, the names of queues. Read inside withTenant.
 */

/** Extensions with the person using them (the account linked to the subscriber, ADR 0015). */
export async function extensionPeople(tx: Queryable): Promise<CallReportOptions['extensions']> {
  const { rows } = await tx.query<{ extension: string; name: string }>(
    `select s.extension, coalesce(nullif(u.full_name, ''), s.display_name) as name
     from subscribers s left join users u on u.id = s.user_id order by s.extension`,
  );
  return rows;
}

/** Extensions of the accounts in a department and/or team. */
export async function extensionsOfOrg(tx: Queryable, by: { departmentId?: number; teamId?: number }): Promise<string[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (by.departmentId !== undefined) where.push(`u.department_id = $${params.push(by.departmentId)}`);
  if (by.teamId !== undefined) where.push(`u.team_id = $${params.push(by.teamId)}`);
  const { rows } = await tx.query<{ extension: string }>(
    `select s.extension from subscribers s join users u on u.id = s.user_id where ${where.join(' and ')}`,
    params,
  );
  return rows.map((r) => r.extension);
}

/** Which of these rows exist: 'department' | 'team' | 'queue' | 'extension' → found. */
export async function existing(tx: Queryable, q: { departmentId?: number; teamId?: number; queueId?: number; extension?: string; numberForms?: string[] }) {
  const { rows } = await tx.query<{ department: boolean; team: boolean; queue: boolean; extension: boolean; number: boolean }>(
    `select exists(select 1 from departments where id = $1) as department, exists(select 1 from teams where id = $2) as team,
            exists(select 1 from pbx_queues where id = $3) as queue, exists(select 1 from subscribers where extension = $4) as extension,
            exists(select 1 from pbx_numbers where number = any($5::text[])) as number`,
    [q.departmentId ?? 0, q.teamId ?? 0, q.queueId ?? 0, q.extension ?? '', q.numberForms ?? []],
  );
  return rows[0];
}

export async function filterChoices(tx: Queryable): Promise<Omit<CallReportOptions, 'extensions' | 'hotlines'>> {
  // One transaction runs one statement at a time.
  const departments = await tx.query<{ id: number; name: string }>('select id, name from departments order by name');
  const teams = await tx.query<{ id: number; name: string; department_id: number }>('select id, name, department_id from teams order by name');
  const queues = await tx.query<{ id: number; name: string }>('select id, name from pbx_queues order by name');
  return { departments: departments.rows, teams: teams.rows, queues: queues.rows };
}

/** The tenant's hotlines: its numbers bound to a carrier switchboard, with that switchboard. */
export async function hotlines(tx: Queryable): Promise<{ number: string; carrier: SwitchboardCarrier; switchboard: string }[]> {
  const { rows } = await tx.query<{ number: string; carrier: SwitchboardCarrier; switchboard: string }>(
    `select n.number, s.carrier, s.name as switchboard from pbx_numbers n join telecom_switchboards s on s.id = n.switchboard_id order by n.number`,
  );
  return rows;
}

/**
 * The parties of one call record, when it is among the calls of `scope` (undefined: the tenant's
 * whole history); null for a record the viewer may not see or that does not exist.
 */
export async function callParties(tx: Queryable, id: number, scope?: string[]): Promise<{ direction: 'inbound' | 'internal' | 'outbound'; caller: string; callee: string } | null> {
  const params: unknown[] = [id];
  const where = conditions({ from: new Date(0), to: new Date('9999-12-31T00:00:00Z'), ...(scope && { scope }) }, params);
  const { rows } = await tx.query<{ direction: 'inbound' | 'internal' | 'outbound'; caller: string; callee: string }>(
    `select direction, caller, callee from cdrs where id = $1 and ${where}`,
    params,
  );
  return rows[0] ?? null;
}

/**
 * Calls through a hotline or trunk (inbound and outbound), counted per hotline, direction, the
 * outside number's first six characters and length (enough to tell its carrier and kind) and
 * talk seconds (so any block rule can bill the groups exactly).
 */
export async function carrierGroups(tx: Queryable, filter: Omit<CdrRangeQuery, 'limit'>) {
  const params: unknown[] = [];
  const where = conditions(filter, params);
  const { rows } = await tx.query<{ hotline: string; direction: 'inbound' | 'outbound'; head: string; len: number; billsec: number; calls: number; answered: number }>(
    `select coalesce(did, trunk, '') as hotline, direction, left(ext, 6) as head, length(ext) as len, billsec,
            count(*)::int as calls, (count(*) filter (where disposition = 'ANSWERED'))::int as answered
       from (select *, case when direction = 'inbound' then caller else callee end as ext from cdrs
              where ${where} and direction in ('inbound', 'outbound')) x
      group by 1, 2, 3, 4, 5`,
    params,
  );
  return rows;
}

/**
 * Calls to this extension it did not answer, started in [from, to): the internal calls dialled to
 * it, and the outside calls that rang it alone (their record names it; one that rang a group or
 * waited in a queue is the group's or queue's miss, not one agent's; ADR 0032).
 */
export async function countMissed(tx: Queryable, extension: string, from: Date, to: Date): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from cdrs
      where started_at >= $1 and started_at < $2 and disposition in ('NO ANSWER', 'VOICEMAIL')
        and ((direction = 'internal' and callee = $3) or (direction = 'inbound' and extension = $3))`,
    [from, to, extension],
  );
  return rows[0].n;
}

/** A user's own extension (the softphone's recent calls are the agent's own, whatever their scope). */
export async function extensionOfUser(tx: Queryable, userId: number): Promise<string | null> {
  const { rows } = await tx.query<{ extension: string | null }>(`select ${userExtensionSql('$1')} as extension`, [userId]);
  return rows[0]?.extension ?? null;
}

/**
 * Calls per DID as the records name it (inbound: the number called; outbound: the hotline
 * presented), started in [from, to). The rollups do not keep the DID, so this reads the records of
 * the range (one Vietnam day for "calls today", on the (tenant, started_at) index).
 */
export async function callsPerDid(tx: Queryable, from: Date, to: Date): Promise<{ did: string; calls: number }[]> {
  const { rows } = await tx.query<{ did: string; calls: number }>(
    'select did, count(*)::int as calls from cdrs where started_at >= $1 and started_at < $2 and did is not null group by did',
    [from, to],
  );
  return rows;
}

/**
 * The fields of an export line, in the order its record holds them (export-lines.ts reads them by
 * position): the columns of the cdr module's report lines (listTenantCdrLines), the instants as
 * whole numbers (at_us: microseconds, answered_ms: milliseconds since 1970).
 */
export const EXPORT_LINE_FIELDS = ['id', 'at_us', 'answered_ms', 'direction', 'caller', 'callee', 'did', 'route', 'extension', 'duration', 'billsec', 'disposition', 'sip_code', 'reason'] as const;
const LINE_RECORD = `row(${EXPORT_LINE_FIELDS.map((f) => (f === 'at_us' || f === 'answered_ms' ? `l.${f}::int8` : `l.${f}`)).join(', ')})::text`;
const [ID, AT, DIRECTION, CALLER, CALLEE] = (['id', 'at_us', 'direction', 'caller', 'callee'] as const).map((f) => EXPORT_LINE_FIELDS.indexOf(f));
/** What a page's arrival reads of each line: up to the callee (the key, the order, the outside number). */
const HEAD = Math.max(ID, AT, DIRECTION, CALLER, CALLEE) + 1;
/** The fields that are integers (read as numbers, not strings). */
export const EXPORT_LINE_NUMERIC: readonly boolean[] = EXPORT_LINE_FIELDS.map((f) => ['id', 'at_us', 'answered_ms', 'duration', 'billsec', 'sip_code'].includes(f));

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/**
 * One record as PostgreSQL's record output writes it (`(1,2,,x,"a ""b"" c")`): its first `upTo`
 * fields into `f` (null for NULL), those `numeric` marks into `num` instead (NaN for NULL), without
 * a string each. A quoted value doubles its quotes and backslashes; an unquoted one holds none, nor
 * a comma, parenthesis or whitespace, so it ends at the next comma (the last one at ')'). `f.length`
 * is the record's width; text that is not such a record throws.
 */
export function readRecord(line: string, f: (string | null)[], upTo = f.length, numeric?: readonly boolean[], num?: Float64Array): void {
  const width = f.length;
  const n = line.length;
  if (line.charCodeAt(0) !== 0x28) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))} is no record`);
  let i = 1;
  for (let k = 0; k < upTo; k++) {
    const last = k === width - 1;
    const stop = last ? 0x29 : 0x2c; // ')' : ','
    let c = line.charCodeAt(i);
    if (c !== QUOTE && numeric?.[k] && num) {
      // Digits (after an optional '-') up to the stop; anything else is read by Number().
      const start = i;
      let v = 0;
      const negative = c === 0x2d;
      if (negative) c = line.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        c = line.charCodeAt(++i);
      }
      if (c !== stop || i === start + (negative ? 1 : 0)) {
        const end = line.indexOf(last ? ')' : ',', start);
        if (end < 0) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))} ends early`);
        num[k] = end === start ? NaN : Number(line.slice(start, end));
        i = end;
      } else num[k] = negative ? -v : v;
      i++;
      continue;
    }
    if (c !== QUOTE) {
      const end = line.indexOf(last ? ')' : ',', i);
      if (end < 0) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))} ends early`);
      if (last && line.lastIndexOf(',', end) >= i) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))} has more than ${width} fields`);
      f[k] = end === i ? null : line.slice(i, end);
      i = end + 1;
    } else {
      let j = i + 1;
      let from = j;
      let value = '';
      for (;;) {
        if (j >= n) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))}: a quoted value does not end`);
        const q = line.charCodeAt(j);
        if (q === BACKSLASH || (q === QUOTE && line.charCodeAt(j + 1) === QUOTE)) {
          // The second of the pair is the character: it starts the next slice.
          value += line.slice(from, j);
          from = j + 1;
          j += 2;
        } else if (q === QUOTE) break;
        else j++;
      }
      if (line.charCodeAt(j + 1) !== stop) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))}: a quoted value is not followed by '${String.fromCharCode(stop)}'`);
      value += line.slice(from, j);
      if (numeric?.[k] && num) num[k] = Number(value);
      else f[k] = value;
      i = j + 2;
    }
  }
  if (upTo === width && i !== n) throw new Error(`export line: ${JSON.stringify(line.slice(0, 40))} has more than ${width} fields`);
}

const DIGITS = /^\d{1,15}$/;
/**
 * A page's outside numbers in the order their customers are looked up: each probe of the index
 * then lands next to the last one (a third of the time of a random order). Numbers of digits by
 * length, then value (a typed-array sort: sorting thousands of strings cost a microsecond a line),
 * then any others, sorted.
 */
export function lookupOrder(numbers: Iterable<string>): string[] {
  const byLength = new Map<number, number[]>();
  const others: string[] = [];
  for (const n of numbers) {
    if (!DIGITS.test(n)) others.push(n);
    else {
      const group = byLength.get(n.length);
      if (group) group.push(Number(n));
      else byLength.set(n.length, [Number(n)]);
    }
  }
  const out: string[] = [];
  for (const length of [...byLength.keys()].sort((a, b) => a - b)) {
    for (const v of Float64Array.from(byLength.get(length)!).sort()) out.push(String(v).padStart(length, '0'));
  }
  return out.concat(others.sort());
}

/** A page of an export's lines as the database sends them: a string per line, not an object of fields. */
export interface ExportLinePage {
  /**
   * The lines, newest first, each a record as PostgreSQL writes one (readRecord); EXPORT_LINE_FIELDS
   * names their fields.
   */
  lines: string[];
  /** The page's outside numbers (inbound: the caller; outbound: the callee), each once, in lookupOrder. */
  numbers: string[];
  /** Where the next page starts; null after the last page. */
  next: LineKey | null;
}

/**
 * The statement listTenantCdrLines runs for a page, recorded rather than run: the cdr module keeps
 * its SQL (filters, index ranges, keyset), an export only wraps it.
 */
async function lineStatement(q: Omit<CdrRangeQuery, 'cursor'>, after: LineKey | null): Promise<{ sql: string; params: unknown[] }> {
  const statements: { sql: string; params: unknown[] }[] = [];
  await listTenantCdrLines({ query: async (sql, params) => (statements.push({ sql, params: params ?? [] }), { rows: [] }) }, q, after);
  if (statements.length !== 1) throw new Error(`listTenantCdrLines ran ${statements.length} statements, not one`);
  return statements[0];
}

/**
 * An export's page (ADR 0029, issue 13): the lines listTenantCdrLines reads — the same rows in the
 * same order, `limit` (1–10,000) after `after` — each one string (its record), with the page's
 * outside numbers (sorted: looked up in index order, each probe lands next to the last one) and
 * the next page's key. A million lines read as objects of 14 fields spent most of the export's
 * time parsing fields and collecting the objects that held them; a string a line costs a fraction
 * of that, and its fields are read when the line is written (export-lines.ts). The lines come in
 * the statement's order (newest first); should they not, they are put back in it here, by
 * (at_us, id) as the keyset reads them. Keyset, one short transaction per page.
 */
export async function exportLinePage(tx: Queryable, q: Omit<CdrRangeQuery, 'cursor'>, after: LineKey | null): Promise<ExportLinePage> {
  const limit = Math.min(Math.max(Math.trunc(q.limit), 1), 10_000);
  const { sql, params } = await lineStatement({ ...q, limit }, after);
  const { rows } = await tx.query<{ r: string }>(`select ${LINE_RECORD} as r from (${sql}) l`, params);
  const lines = new Array<string>(rows.length);
  const keys = new Float64Array(rows.length * 2);
  const numbers = new Set<string>();
  const f = new Array<string | null>(EXPORT_LINE_FIELDS.length).fill(null);
  const num = new Float64Array(EXPORT_LINE_FIELDS.length);
  let ordered = true;
  for (let i = 0; i < rows.length; i++) {
    const line = (lines[i] = rows[i].r);
    readRecord(line, f, HEAD, EXPORT_LINE_NUMERIC, num);
    keys[2 * i] = num[AT];
    keys[2 * i + 1] = num[ID];
    if (i && (num[AT] > keys[2 * i - 2] || (num[AT] === keys[2 * i - 2] && num[ID] >= keys[2 * i - 1]))) ordered = false;
    const direction = f[DIRECTION];
    const outside = direction === 'inbound' ? f[CALLER] : direction === 'outbound' ? f[CALLEE] : null;
    if (outside) numbers.add(outside);
  }
  if (!ordered) {
    const order = Array.from(lines.keys()).sort((a, b) => keys[2 * b] - keys[2 * a] || keys[2 * b + 1] - keys[2 * a + 1]);
    const sorted = order.map((i) => lines[i]);
    const sortedKeys = Float64Array.from(order.flatMap((i) => [keys[2 * i], keys[2 * i + 1]]));
    lines.splice(0, lines.length, ...sorted);
    keys.set(sortedKeys);
  }
  const n = lines.length;
  return { lines, numbers: lookupOrder(numbers), next: n === limit ? { atUs: keys[2 * n - 2], id: keys[2 * n - 1] } : null };
}
