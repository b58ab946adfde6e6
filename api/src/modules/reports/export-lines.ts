import { CALL_RESULTS, displayForm, formatDuration, REPORT_DIRECTIONS, REPORT_PATH_LABELS, resultOf, resultReason, type CallReportRow } from '@tongdai/contracts';
import { csvCell, type RenderedPage } from '../../http/export-files';
import type { CdrLine } from '../cdr/cdr.service';

/**
 * An export's lines straight from the records (ADR 0029): the cells `callReportCells` gives for
 * the row the screen shows (call-history present()), without building that row, its ISO times or
 * its path objects first — at a million lines that churn was most of the export's time. A page
 * gives its CSV text straight from the lines too (no cell arrays), each row one template string.
 * export.integration.test holds the cells equal to the screen's, and the CSV equal to the cells'.
 */
const VN_OFFSET_MS = 7 * 3_600_000; // Asia/Ho_Chi_Minh: UTC+7, no daylight saving
const DAY_MS = 86_400_000;
// Read once: a re-exported binding is a getter on every access, a million times per export.
const [PATH_LABELS, duration, result, reasonOf, shown] = [REPORT_PATH_LABELS, formatDuration, resultOf, resultReason, displayForm];
const DIRECTIONS: Record<string, string> = { ...REPORT_DIRECTIONS };
const RESULTS: Record<string, string> = { ...CALL_RESULTS };
/** '00'…'59'. */
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** mm:ss of whole seconds below 10 hours, made once each (a call's wait and talk time). */
const MMSS: string[] = [];
const mmss = (s: number): string => (Number.isInteger(s) && s >= 0 && s < 36_000 ? (MMSS[s] ??= duration(s)) : duration(s));
/** The result label of a disposition, and the reason of an unanswered call without its own (it depends on the SIP code only). */
const RESULT_OF = new Map<string, string>();
const REASON_OF = new Map<string, Map<number | null, string>>();

export interface LineContext {
  /** The person using each extension. */
  nameOf: Map<string, string>;
  /** An outside number as shown: national form, masked when the tenant hides numbers. */
  hide: (n: string) => string;
}

/** The outside number of a call (the one a customer is looked up by), null for an internal call. */
export const outsideNumber = (r: Pick<CdrLine, 'direction' | 'caller' | 'callee'>): string | null =>
  r.direction === 'inbound' ? r.caller : r.direction === 'outbound' ? r.callee : null;

/** The outside numbers of a page of lines, each once (a customer is looked up by them). */
export function outsideNumbers(lines: readonly CdrLine[]): string[] {
  const numbers = new Set<string>();
  for (const r of lines) {
    const n = outsideNumber(r);
    if (n) numbers.add(n);
  }
  return [...numbers];
}

/** The 13 cells of a line, in CALL_REPORT_EXPORT_HEADERS' order, as arguments. */
type Row<T> = (
  time: string, direction: string, caller: string, callee: string, did: string, path: string, extension: string, person: string,
  wait: string, talk: string, result: string, reason: string, customer: string,
) => T;

/**
 * Each line of a page through `row`, with its cells. The Vietnam time is the day's date (made once
 * per day) and the time of day from the seconds: no Date per line.
 */
function eachLine<T>(lines: readonly CdrLine[], ctx: LineContext, customerOf: ReadonlyMap<string, string>, row: Row<T>): T[] {
  const dids = new Map<string, string>(); // a page has few hotlines
  const out = new Array<T>(lines.length);
  let day = NaN;
  let date = '';
  for (let i = 0; i < lines.length; i++) {
    const r = lines[i];
    const ext = outsideNumber(r);
    const startMs = Math.floor(r.at_us / 1000);
    const local = startMs + VN_OFFSET_MS;
    const d = Math.floor(local / DAY_MS);
    if (d !== day) {
      day = d;
      date = new Date(d * DAY_MS).toISOString().slice(0, 10);
    }
    const sec = Math.floor((local - d * DAY_MS) / 1000);
    let did = '';
    if (r.did) {
      did = dids.get(r.did) ?? shown(r.did);
      dids.set(r.did, did);
    }
    let path = '';
    if (r.route) for (const n of r.route) {
      if (n.type === 'ivr' || n.type === 'queue' || n.type === 'group') path += `${path ? ' → ' : ''}${PATH_LABELS[n.type]}: ${n.name}`;
    }
    const wait = r.answered_ms !== null ? Math.max(0, Math.round((r.answered_ms - startMs) / 1000)) : r.duration;
    let label = RESULT_OF.get(r.disposition);
    if (label === undefined) RESULT_OF.set(r.disposition, (label = RESULTS[result(r.disposition) as CallReportRow['result']]));
    let reason = r.reason;
    if (!reason) {
      let byCode = REASON_OF.get(r.disposition);
      if (!byCode) REASON_OF.set(r.disposition, (byCode = new Map()));
      reason = byCode.get(r.sip_code) ?? reasonOf(r.disposition, r.sip_code, '');
      byCode.set(r.sip_code, reason);
    }
    out[i] = row(
      `${date} ${TWO[Math.floor(sec / 3600)]}:${TWO[Math.floor(sec / 60) % 60]}:${TWO[sec % 60]}`,
      DIRECTIONS[r.direction],
      r.caller === ext ? ctx.hide(r.caller) : r.caller,
      r.callee === ext ? ctx.hide(r.callee) : r.callee,
      did,
      path,
      r.extension ?? '',
      r.extension ? (ctx.nameOf.get(r.extension) ?? '') : '',
      mmss(wait),
      mmss(r.billsec),
      label,
      reason ?? '',
      (ext && customerOf.get(ext)) || '',
    );
  }
  return out;
}

const asCells: Row<string[]> = (...cells) => cells;
/**
 * A line as CSV (csvLine of its cells): the time, direction, durations and result never need
 * quoting or defusing (digits, '-', ':', ' '; the contracts' Vietnamese labels, checked below).
 */
const asCsv: Row<string> = (time, direction, caller, callee, did, path, extension, person, wait, talk, label, reason, customer) =>
  `${time},${direction},${csvCell(caller)},${csvCell(callee)},${csvCell(did)},${csvCell(path)},${csvCell(extension)},${csvCell(person)},${wait},${talk},${label},${csvCell(reason)},${csvCell(customer)}\r\n`;
for (const label of [...Object.values(DIRECTIONS), ...Object.values(RESULTS)]) {
  if (csvCell(label) !== label) throw new Error(`export label needs CSV quoting: ${label}`);
}

/** A page of lines as export cells; `customerOf` maps outside numbers to the customer's name. */
export const lineCells = (lines: readonly CdrLine[], ctx: LineContext, customerOf: ReadonlyMap<string, string>): string[][] =>
  eachLine(lines, ctx, customerOf, asCells);

/** A page of lines as an export page: its CSV made straight from the lines, its cells only when asked (XLSX). */
export function linePage(lines: readonly CdrLine[], ctx: LineContext, customerOf: ReadonlyMap<string, string>): RenderedPage {
  return {
    length: lines.length,
    cells: () => lineCells(lines, ctx, customerOf),
    csv: () => eachLine(lines, ctx, customerOf, asCsv).join(''),
  };
}
