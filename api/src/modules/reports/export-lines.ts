import { CALL_RESULTS, displayForm, formatDuration, REPORT_DIRECTIONS, REPORT_PATH_LABELS, resultOf, resultReason, type CallReportRow } from '@tongdai/contracts';
import { csvCell, Utf8Lines, type RenderedPage } from '../../http/export-files';
import type { CdrLine } from '../cdr/cdr.service';
import { EXPORT_LINE_FIELDS, EXPORT_LINE_NUMERIC, readRecord, type ExportLinePage } from './call-history.repository';

/**
 * An export's lines straight from the records (ADR 0029): the cells `callReportCells` gives for
 * the row the screen shows (call-history present()), without building that row, its ISO times or
 * its path objects first. A line comes from the database as one string, its record
 * (exportLinePage), read field by field only when the page is written: no object of fields per
 * line waits in memory between the stages of the export. A page's CSV is written as UTF-8 line by
 * line, each line one template string. export.integration.test holds the cells equal to the
 * screen's, and the CSV equal to the cells'.
 *
 * What repeats is made once per export, not per line (issue 13: ≥ 50,000 lines/s): the Vietnam
 * date of a day and the "date HH:MM:" of a minute (epoch + 7 h: Asia/Ho_Chi_Minh has no daylight
 * saving, so no Date or Intl per line), mm:ss of a duration, the shown hotline, the labels and
 * reasons; an outside number in national form skips displayForm (it would give it back unchanged).
 */
const VN_OFFSET_MS = 7 * 3_600_000; // Asia/Ho_Chi_Minh: UTC+7, no daylight saving
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
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
const REASON_OF = new Map<string, Map<number, string>>();
/**
 * A number displayForm gives back as it is: 0 then a digit 2–9 (a national number, or a 0… that is
 * no Vietnamese number and so is shown as stored). Not 00… (0084… becomes 0…) nor 01… (01900… becomes 1900…).
 */
export const NATIONAL = /^0[2-9]\d*$/;
/** Shown hotlines kept per export (a tenant has few; the bound keeps memory flat whatever the records hold). */
const MAX_DIDS = 10_000;
/** The position of each field in a line's record. */
const [AT, ANSWERED, DIRECTION, CALLER, CALLEE, DID, ROUTE, EXTENSION, DURATION, BILLSEC, DISPOSITION, SIP_CODE, REASON] = (
  ['at_us', 'answered_ms', 'direction', 'caller', 'callee', 'did', 'route', 'extension', 'duration', 'billsec', 'disposition', 'sip_code', 'reason'] as const
).map((f) => EXPORT_LINE_FIELDS.indexOf(f));
const WIDTH = EXPORT_LINE_FIELDS.length;
// Bound once: an imported binding is read through a getter on every use (see above).
const cell = csvCell;

export interface LineContext {
  /** The person using each extension. */
  nameOf: Map<string, string>;
  /** An outside number as shown: national form, masked when the tenant hides numbers. */
  hide: (n: string) => string;
  /**
   * The masking alone (what hide does after displayForm), null when numbers are shown whole: a
   * number already in national form is masked without displayForm. Absent: hide is used for every number.
   */
  mask?: ((national: string) => string) | null;
}

/** The outside number of a call (the one a customer is looked up by), null for an internal call. */
export const outsideNumber = (r: Pick<CdrLine, 'direction' | 'caller' | 'callee'>): string | null =>
  r.direction === 'inbound' ? r.caller : r.direction === 'outbound' ? r.callee : null;

/** The 13 cells of a line, in CALL_REPORT_EXPORT_HEADERS' order, as arguments. */
type Row = (
  time: string, direction: string, caller: string, callee: string, did: string, path: string, extension: string, person: string,
  wait: string, talk: string, result: string, reason: string, customer: string,
) => void;

/** The label of a disposition and the reason of a line without its own, made once each. */
function labelOf(disposition: string): string {
  let label = RESULT_OF.get(disposition);
  if (label === undefined) RESULT_OF.set(disposition, (label = RESULTS[result(disposition) as CallReportRow['result']]));
  return label;
}
/** `code`: NaN for none. */
function codeReason(disposition: string, code: number): string {
  let byCode = REASON_OF.get(disposition);
  if (!byCode) REASON_OF.set(disposition, (byCode = new Map()));
  let reason = byCode.get(code); // a Map finds NaN too
  if (reason === undefined) byCode.set(code, (reason = reasonOf(disposition, Number.isNaN(code) ? null : code, '')));
  return reason;
}

/** The path shown for a route (its IVR, queue and group steps), '' for none. */
function pathOf(route: string | null): string {
  if (route === null) return '';
  let path = '';
  for (const n of JSON.parse(route) as NonNullable<CdrLine['route']>) {
    if (n.type === 'ivr' || n.type === 'queue' || n.type === 'group') path += `${path ? ' → ' : ''}${PATH_LABELS[n.type]}: ${n.name}`;
  }
  return path;
}

/**
 * The lines of one export, page after page: what repeats (days, minutes, hotlines) is kept from
 * one page to the next, bounded. The function it gives passes each line of a page to `row`, as cells.
 */
export function lineWriter(ctx: LineContext) {
  const { nameOf, hide } = ctx;
  const mask = ctx.mask;
  const fast = mask !== undefined;
  const outside = (n: string): string => (fast && NATIONAL.test(n) ? (mask ? mask(n) : n) : hide(n));
  const dids = new Map<string, string>();
  const f = new Array<string | null>(WIDTH).fill(null);
  const num = new Float64Array(WIDTH);
  let day = NaN;
  let date = '';
  let minute = NaN;
  let prefix = '';

  return function eachLine(page: Pick<ExportLinePage, 'lines'>, customerOf: ReadonlyMap<string, string>, row: Row): void {
    for (const line of page.lines) {
      readRecord(line, f, WIDTH, EXPORT_LINE_NUMERIC, num);
      const direction = f[DIRECTION]!;
      const caller = f[CALLER]!;
      const callee = f[CALLEE]!;
      const ext = direction === 'inbound' ? caller : direction === 'outbound' ? callee : null;
      const startMs = Math.floor(num[AT] / 1000);
      const local = startMs + VN_OFFSET_MS;
      const m = Math.floor(local / MINUTE_MS);
      if (m !== minute) {
        minute = m;
        const d = Math.floor(local / DAY_MS);
        if (d !== day) {
          day = d;
          date = new Date(d * DAY_MS).toISOString().slice(0, 10);
        }
        const ofDay = m - d * 1440;
        prefix = `${date} ${TWO[Math.floor(ofDay / 60)]}:${TWO[ofDay % 60]}:`;
      }
      let did = f[DID];
      if (did) {
        const found = dids.get(did);
        if (found !== undefined) did = found;
        else {
          if (dids.size >= MAX_DIDS) dids.clear();
          const raw = did;
          dids.set(raw, (did = shown(raw)));
        }
      }
      const answered = num[ANSWERED];
      const wait = answered === answered ? Math.max(0, Math.round((answered - startMs) / 1000)) : num[DURATION]; // NaN: not answered
      const disposition = f[DISPOSITION]!;
      // An unanswered call's extension is the one it rang, not an answerer (as on the screen).
      const extension = disposition === 'ANSWERED' ? f[EXTENSION] : null;
      row(
        prefix + TWO[Math.floor(local / 1000) - m * 60],
        DIRECTIONS[direction],
        caller === ext ? outside(caller) : caller,
        callee === ext ? outside(callee) : callee,
        did ?? '',
        pathOf(f[ROUTE]),
        extension ?? '',
        extension ? (nameOf.get(extension) ?? '') : '',
        mmss(wait),
        mmss(disposition === 'ANSWERED' ? num[BILLSEC] : 0), // talk: a person's answer only, as on the screen (ADR 0045)
        labelOf(disposition),
        f[REASON] || codeReason(disposition, num[SIP_CODE]),
        (ext && customerOf.get(ext)) || '',
      );
    }
  };
}
type EachLine = ReturnType<typeof lineWriter>;

/** A page's lines as cells. */
function cellsOf(each: EachLine, page: ExportLinePage, customerOf: ReadonlyMap<string, string>): string[][] {
  const out: string[][] = [];
  each(page, customerOf, (...cells) => {
    out.push(cells);
  });
  return out;
}

/**
 * A page's lines as CSV (csvLine of their cells), each line written as UTF-8 as it is made: the
 * time, direction, durations and result never need quoting or defusing (digits, '-', ':', ' ';
 * the contracts' Vietnamese labels, checked below).
 */
function csvOf(each: EachLine, page: ExportLinePage, customerOf: ReadonlyMap<string, string>): Buffer {
  const out = new Utf8Lines(page.lines.length * 160);
  each(page, customerOf, (time, direction, caller, callee, did, path, extension, person, wait, talk, label, reason, customer) =>
    out.add(
      `${time},${direction},${cell(caller)},${cell(callee)},${cell(did)},${cell(path)},${cell(extension)},${cell(person)},${wait},${talk},${label},${cell(reason)},${cell(customer)}\r\n`,
    ));
  return out.bytes();
}
for (const label of [...Object.values(DIRECTIONS), ...Object.values(RESULTS)]) {
  if (csvCell(label) !== label) throw new Error(`export label needs CSV quoting: ${label}`);
}

/**
 * The pages of one export (lineWriter): each page of lines as an export page, its CSV made
 * straight from the records, its cells only when asked (XLSX). `customerOf` maps outside numbers
 * to the customer's name.
 */
export function linePages(ctx: LineContext): (page: ExportLinePage, customerOf: ReadonlyMap<string, string>) => RenderedPage {
  const each: EachLine = lineWriter(ctx);
  return (page, customerOf) => ({
    length: page.lines.length,
    cells: () => cellsOf(each, page, customerOf),
    csv: () => csvOf(each, page, customerOf),
  });
}
