import { CALL_RESULTS, displayForm, formatDuration, REPORT_DIRECTIONS, REPORT_PATH_LABELS, resultOf, resultReason, type CallReportRow } from '@tongdai/contracts';
import type { CdrLine } from '../cdr/cdr.service';

/**
 * An export's lines straight from the records (ADR 0029): the cells `callReportCells` gives for
 * the row the screen shows (call-history present()), without building that row, its ISO times or
 * its path objects first — at a million lines that churn was most of the export's time.
 * export.integration.test holds the two equal, filter by filter, masked, with customers.
 */
const VN_OFFSET_MS = 7 * 3_600_000;
// Read once: a re-exported binding is a getter on every access, a million times per export.
const [DIRECTIONS, RESULTS, PATH_LABELS, duration, result, reasonOf, shown] = [REPORT_DIRECTIONS, CALL_RESULTS, REPORT_PATH_LABELS, formatDuration, resultOf, resultReason, displayForm];

export interface LineContext {
  /** The person using each extension. */
  nameOf: Map<string, string>;
  /** An outside number as shown: national form, masked when the tenant hides numbers. */
  hide: (n: string) => string;
}

/** The outside number of a call (the one a customer is looked up by), null for an internal call. */
export const outsideNumber = (r: Pick<CdrLine, 'direction' | 'caller' | 'callee'>): string | null =>
  r.direction === 'inbound' ? r.caller : r.direction === 'outbound' ? r.callee : null;

/** A page of lines as export cells; `customerOf` maps outside numbers to the customer's name. */
/** The outside numbers of a page of lines, each once (a customer is looked up by them). */
export function outsideNumbers(lines: readonly CdrLine[]): string[] {
  const numbers = new Set<string>();
  for (const r of lines) {
    const n = outsideNumber(r);
    if (n) numbers.add(n);
  }
  return [...numbers];
}

export function lineCells(lines: readonly CdrLine[], ctx: LineContext, customerOf: ReadonlyMap<string, string>): string[][] {
  const dids = new Map<string, string>(); // a page has few hotlines
  const out = new Array<string[]>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const r = lines[i];
    const ext = outsideNumber(r);
    const startMs = Math.floor(r.at_us / 1000);
    const local = new Date(startMs + VN_OFFSET_MS).toISOString();
    let did = '';
    if (r.did) {
      did = dids.get(r.did) ?? shown(r.did);
      dids.set(r.did, did);
    }
    let path = '';
    for (const n of r.route) {
      if (n.type === 'ivr' || n.type === 'queue' || n.type === 'group') path += `${path ? ' → ' : ''}${PATH_LABELS[n.type]}: ${n.name}`;
    }
    const wait = r.answered_ms !== null ? Math.max(0, Math.round((r.answered_ms - startMs) / 1000)) : r.duration;
    out[i] = [
      `${local.slice(0, 10)} ${local.slice(11, 19)}`,
      DIRECTIONS[r.direction],
      r.caller === ext ? ctx.hide(r.caller) : r.caller,
      r.callee === ext ? ctx.hide(r.callee) : r.callee,
      did,
      path,
      r.extension ?? '',
      r.extension ? (ctx.nameOf.get(r.extension) ?? '') : '',
      duration(wait),
      duration(r.billsec),
      RESULTS[result(r.disposition) as CallReportRow['result']],
      reasonOf(r.disposition, r.sip_code, r.reason),
      (ext && customerOf.get(ext)) || '',
    ];
  }
  return out;
}
