import { likePattern } from '../../db/sql';
import { DISPOSITIONS, type CdrFilter } from './cdr';

/**
 * A filtered page's rows found by exact index ranges (migration 0030, ADR 0029). Walking the range
 * backwards on (tenant_id, started_at, id) until `limit` rows pass the filter costs what the filter
 * skips: a filter that matches nothing (three extensions' missed inbound calls) read the whole month.
 * Instead each value the filter allows — an extension (as the one who answered, placed or was called),
 * or the queue, or nothing — times each direction and result it allows is one index range of
 * (tenant_id, <value>, direction, disposition, started_at, id), already newest first; each gives its
 * first `limit` rows under every condition, and the merge of them all, newest first, is the page.
 * At most (extensions × 42) or 21 ranges, whatever the data.
 */
const DIRECTIONS = ['inbound', 'internal', 'outbound'] as const;

/** Each branch of the extension condition (conditions()): the column and the directions it holds for. */
const EXTENSION_BRANCHES: readonly { column: string; directions: readonly string[] }[] = [
  { column: 'extension', directions: DIRECTIONS },
  { column: 'caller', directions: ['internal', 'outbound'] },
  { column: 'callee', directions: ['internal'] },
];

/**
 * Digits a number search needs before the trigram index serves it (migration 0035): from four on,
 * a number matches few calls (a few in a thousand), so collecting them all is cheap; shorter ones
 * match so many that the range walk ends after a few rows.
 */
export const INDEXED_SEARCH = 4;

/**
 * The page's keys when a number search is long enough for the trigram index (migration 0035): the
 * range's matches from cdr_number_keys (the index under the tenant condition it applies itself; RLS
 * would keep the planner off it), each read by key under RLS and every condition of the page, the
 * newest `limit` (all of them without one: a numbered page's total). Null for a shorter search, or none: a number nobody called walked the whole range
 * (1.3 s a month at 1 M records), as the planner's estimate for '%…%' is a few dozen rows.
 */
export function searchKeysSql(q: CdrFilter & { from: Date; to: Date }, where: string, params: unknown[], limit: string | null): string | null {
  if (!q.number || q.number.length < INDEXED_SEARCH) return null;
  const p = (value: unknown) => `$${params.push(value)}`;
  const found = `select r.started_at, r.id from cdr_number_keys(${p(q.from)}, ${p(q.to)}, ${p(likePattern(q.number))}) k
    cross join lateral (select started_at, id from cdrs where id = k.id and started_at = k.started_at and ${where}) r`;
  return limit === null ? found : `${found} order by r.started_at desc, r.id desc limit ${limit}`;
}

/**
 * The statement giving (started_at, id) of the page's rows, newest first, or null when no filter
 * has an index of its own (no extension, queue, direction or result: the range scan serves).
 * `whereOf`: the page's conditions for a filter (the range and keyset position added), its
 * parameters appended to `params`. Each range is asked every condition but the extension list it
 * is a range of (its key says it holds), so a range reads its index alone where the visibility map
 * allows (the rows themselves are read by key, under every condition, by the caller).
 */
export function pageKeysSql(q: CdrFilter, whereOf: (f: CdrFilter) => string, params: unknown[], limit: string): string | null {
  const p = (value: unknown) => `$${params.push(value)}`;
  const directions = q.direction ? [q.direction] : DIRECTIONS;
  const dispositions = q.disposition ? [q.disposition] : DISPOSITIONS;
  const lists = [q.extensions, q.scope].filter((l): l is readonly string[] => !!l);
  // The shorter list drives (the other stays a condition of each range): an agent's own extension.
  const driver = lists.sort((a, b) => a.length - b.length)[0];
  const ranges: { column: string; cast: string; keys: [string, string, string][] }[] = [];
  const combos = (values: readonly string[], dirs: readonly string[]) =>
    values.flatMap((v) => dirs.filter((d) => directions.includes(d as never)).flatMap((d) => dispositions.map((s): [string, string, string] => [v, d, s])));
  if (driver) for (const b of EXTENSION_BRANCHES) ranges.push({ column: b.column, cast: '', keys: combos([...new Set(driver)], b.directions) });
  else if (q.queueId !== undefined) ranges.push({ column: 'queue_id', cast: '::int', keys: combos([String(q.queueId)], DIRECTIONS) });
  else if (q.direction || q.disposition) ranges.push({ column: '', cast: '', keys: combos([''], DIRECTIONS) });
  else return null;
  const asked = ranges.filter((r) => r.keys.length);
  // No range at all (an extension list that is empty): a statement that gives nothing.
  if (!asked.length) return `select null::timestamptz as started_at, null::bigint as id where false`;
  const where = whereOf(driver === q.extensions ? { ...q, extensions: undefined } : driver === q.scope ? { ...q, scope: undefined } : q);
  const parts = asked.map((r) => {
      const [vs, ds, ss] = [0, 1, 2].map((i) => p(r.keys.map((k) => k[i])));
      const value = r.column ? `${r.column} = k.v${r.cast} and ` : '';
      return `select r.started_at, r.id from unnest(${vs}::text[], ${ds}::text[], ${ss}::text[]) as k(v, d, s)
        cross join lateral (select started_at, id from cdrs
          where ${value}direction = k.d and disposition = k.s and ${where}
          order by started_at desc, id desc limit ${limit}) r`;
    });
  return `select started_at, id from (${parts.join('\n union ')}) u order by started_at desc, id desc limit ${limit}`;
}
