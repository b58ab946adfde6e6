import {
  allNumberForms, billedSeconds, carrierOf, DEFAULT_BILLING, storedForm, displayForm, hotlineCarrier, phoneKind, PAGE_SIZE, RESULT_DISPOSITION, resultOf, resultReason, vnDay, vnDayStart,
  type CallReportOptions, type CallReportQuery, type DialTarget, type CarrierReportRow, type CallReportRow, type Paged, type RecordingRef, type VoicemailRef,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import type { CdrRow } from '../cdr/cdr';
import { listTenantCdrs, oddLegCorrection, pageTenantCdrs, type CdrFilter, type CdrRecord, type LineKey } from '../cdr/cdr.service';
import { createCustomersService } from '../customers/customers.service';
import { phoneMasker } from '../settings/settings.service';
import { recordingRefs, type RecordingAccess } from '../recordings/recordings.service';
import { voicemailRefs } from '../voicemail/voicemail.service';
import type { RenderedPage } from '../../http/export-files';
import { linePages, outsideNumber } from './export-lines';
import { callParties, callsPerDid, carrierGroups, exportLinePage, extensionOfUser, extensionPeople, filterChoices, hotlines, type ExportLinePage } from './call-history.repository';
import { AppError } from '../../http/errors';
import { totals } from './read-model';
import { reportWho } from './report-filters';
import { viewerScope, type Viewer } from './viewer-scope';

const PATH_TYPES = new Set(['ivr', 'queue', 'group']);
const DAY_MS = 86_400_000;
/** Rows per keyset page of an export (ADR 0029): one short transaction each, so memory stays flat. */
const EXPORT_PAGE = 5000;


/** The recordings and voicemail messages of a page's calls, read in the page's own transaction; null: not asked. */
async function pageRecordings(tx: Queryable, rows: CdrRecord[], access: RecordingAccess): Promise<PageAudio | null> {
  if (!access) return null;
  const ids = rows.map((r) => r.call_id);
  return { recordings: await recordingRefs(tx, ids, access.downloadable), voicemails: await voicemailRefs(tx, ids) };
}
type PageAudio = { recordings: Map<string, RecordingRef>; voicemails: Map<string, VoicemailRef> };

export interface CallHistoryOptions {
  /** Lines per page of an export (EXPORT_PAGE; tests make pages small to cross their boundaries). */
  exportPage?: number;
}

/**
 * The one extension whose calls a filter asks for: '' when it names none (no list), null when its
 * lists mean more than one extension (or two lists that are not one within the other: an agent
 * filtering another extension asks for the calls between them).
 */
function oneExtension(f: CdrFilter): string | null {
  const lists = [f.extensions, f.scope].filter((l): l is readonly string[] => !!l);
  if (!lists.length) return '';
  const [a, b = a] = lists.map((l) => [...new Set(l)]).sort((x, y) => x.length - y.length);
  return a.length === 1 && b.includes(a[0]) ? a[0] : null;
}

/** What every page of one answer shares: the people on the extensions and the tenant's masking. */
export async function callContext(db: Db, tenantId: number) {
  const [people, mask] = await Promise.all([db.withTenant(tenantId, extensionPeople), phoneMasker(db, tenantId)]);
  return {
    nameOf: new Map(people.map((p) => [p.extension, p.name])),
    // Outside numbers read as everywhere else (ADR 0016: answered 0…), then masked per the setting.
    hide: (n: string) => (mask ? mask(displayForm(n)) : displayForm(n)),
    /** The masking alone (an export skips displayForm for a number already in national form). */
    mask,
  };
}

/** Call history (issue 13): filtered CDRs of a tenant, scoped to what the viewer may see, with names, customers and masking. */
export function createCallHistoryService(db: Db, options: CallHistoryOptions = {}) {
  const customers = createCustomersService(db);
  const exportPage = options.exportPage ?? EXPORT_PAGE;

  /** The CDR filter a query means for this viewer; null when the viewer can see nothing (an agent without extension). */
  async function filterOf(v: Viewer, q: CallReportQuery, answeredOnly: boolean): Promise<(CdrFilter & { from: Date; to: Date }) | null> {
    const today = vnDay(new Date());
    const fromDay = q.from ?? q.to ?? today;
    const toDay = q.to ?? q.from ?? today;
    return db.withTenant(v.tenantId, async (tx) => {
      const who = await reportWho(tx, v, q);
      if (who === null) return null;
      const result = answeredOnly ? 'answered' : q.result;
      return {
        from: vnDayStart(fromDay)!,
        to: new Date(vnDayStart(toDay)!.getTime() + DAY_MS),
        ...(q.direction && { direction: q.direction }),
        ...(result && { disposition: RESULT_DISPOSITION[result] as CdrRow['disposition'] }),
        ...(who.extensions && { extensions: who.extensions }),
        ...(who.scope && { scope: who.scope }),
        ...(who.queueId !== undefined && { queueId: who.queueId }),
        ...(q.search && { number: q.search.replace(/^\+/, '') }),
        ...(who.did && { dids: who.did }),
      };
    });
  }

  /** Names, customers and masking for one page of records. */
  async function present(
    tenantId: number, records: CdrRecord[], context?: Awaited<ReturnType<typeof callContext>>, audio?: PageAudio | null,
  ): Promise<CallReportRow[]> {
    const numbers = [...new Set(records.map(outsideNumber).filter((n): n is string => !!n))];
    const [{ nameOf, hide }, found] = await Promise.all([context ?? callContext(db, tenantId), customers.byPhones(tenantId, numbers)]);
    return records.map((r) => {
      const ext = outsideNumber(r);
      const customer = ext ? found.get(ext) : null;
      return {
        id: r.id,
        started_at: r.started_at,
        direction: r.direction,
        caller: r.caller === ext ? hide(r.caller) : r.caller,
        callee: r.callee === ext ? hide(r.callee) : r.callee,
        did: r.did && displayForm(r.did),
        path: r.route.filter((n) => PATH_TYPES.has(n.type)).map((n) => ({ type: n.type as CallReportRow['path'][number]['type'], name: n.name })),
        // An unanswered call's extension is the one it rang, not an answerer.
        answered_by: r.extension && r.disposition === 'ANSWERED' ? { extension: r.extension, name: nameOf.get(r.extension) ?? '' } : null,
        wait: r.answered_at ? Math.max(0, Math.round((Date.parse(r.answered_at) - Date.parse(r.started_at)) / 1000)) : r.duration,
        // Talk is a person's (ADR 0045): a mailbox or a menu answering is billed, nobody's talk.
        billsec: r.disposition === 'ANSWERED' ? r.billsec : 0,
        result: resultOf(r.disposition),
        reason: resultReason(r.disposition, r.sip_code, r.reason),
        customer: customer ? { id: customer.id, name: customer.name, phone: hide(customer.phone) } : null,
        ...(audio && { recording: audio.recordings.get(r.call_id) ?? null, voicemail: audio.voicemails.get(r.call_id) ?? null }),
      };
    });
  }

  return {
    /** A numbered page with its total (no `cursor` in the query), else a keyset page with `next`. */
    async list(v: Viewer, q: CallReportQuery, answeredOnly = false, recording: RecordingAccess = null): Promise<Paged<CallReportRow> | { data: CallReportRow[]; next: string | null }> {
      const perPage = Number(q.per_page) || PAGE_SIZE;
      const page = Number(q.page) || 1;
      const filter = await filterOf(v, q, answeredOnly);
      if (q.cursor !== undefined) {
        if (!filter) return { data: [], next: null };
        const res = await db.withTenant(v.tenantId, async (tx) => {
          const found = await listTenantCdrs(tx, { ...filter, limit: perPage, cursor: q.cursor || null });
          return { ...found, recordings: await pageRecordings(tx, found.rows, recording) };
        });
        return { data: await present(v.tenantId, res.rows, undefined, res.recordings), next: res.next };
      }
      if (!filter) return { data: [], meta: { page, per_page: perPage, total: 0 } };
      const res = await db.withTenant(v.tenantId, async (tx) => {
        // The total of a filter the rollups hold (direction, result, queue over whole days, one
        // extension) is the read model's count (ADR 0029): counting a month of records took a second
        // at 10 M. One extension's adds the few records whose legs differ from the filter (an index of
        // their own). Several extensions are counted from the records (an internal call between two
        // of them is two legs in the rollups, one record), as are number searches (the trigram keys).
        const result = answeredOnly ? 'answered' : q.result;
        const one = oneExtension(filter);
        const total = filter.number || filter.dids || one === null
          ? undefined
          : (await totals(tx, {
              from: filter.from, to: filter.to, ...(one && { extensions: [one] }), ...(filter.direction && { direction: filter.direction }), ...(result && { result }),
              ...(filter.queueId !== undefined && { queueId: filter.queueId }),
            })).calls + (one ? await oddLegCorrection(tx, filter, one) : 0);
        const found = await pageTenantCdrs(tx, { ...filter, limit: perPage }, page, total);
        return { ...found, recordings: await pageRecordings(tx, found.rows, recording) };
      });
      return { data: await present(v.tenantId, res.rows, undefined, res.recordings), meta: { page, per_page: perPage, total: res.total } };
    },

    /**
     * The filtered calls as export pages: every row the pages would show, in the same order,
     * masked the same way (CSV and XLSX both read this; a page gives its cells or its CSV). The
     * filters are checked before it resolves, so a bad filter is a 400 before the first byte.
     * Keyset pages of lines (only the columns a line shows), one short transaction each: memory
     * stays flat however many rows there are (ADR 0029). A page comes as a string a line (its
     * record) with its outside numbers (exportLinePage), each line's fields read only as it is
     * written (export-lines.ts: ≥ 50,000 lines/s, issue 13). Three stages overlap: while page k is
     * written, page k+1's customers are looked up and page k+2's lines read (the lines are a chain,
     * each page starting after the last one's key). At most those three pages are held; nothing
     * more is read once the download is cancelled.
     */
    async exportPages(v: Viewer, q: CallReportQuery, answeredOnly = false): Promise<AsyncGenerator<RenderedPage>> {
      const filter = await filterOf(v, q, answeredOnly);
      const context = filter && (await callContext(db, v.tenantId));
      let stopped = false;
      const quiet = <T>(p: Promise<T>) => (p.catch(() => undefined), p); // left unread when cancelled, not unhandled
      const linesAfter = (after: LineKey | null) => quiet(db.withTenant(v.tenantId, (tx) => exportLinePage(tx, { ...filter!, limit: exportPage }, after)));
      /** A page whose lines are read: its customers asked, the next page's lines too (unless cancelled). */
      const started = (lines: ExportLinePage) => ({
        lines,
        names: quiet(customers.namesByPhones(v.tenantId, lines.numbers)),
        next: lines.next && !stopped ? linesAfter(lines.next) : null,
      });
      return (async function* () {
        if (!filter || !context) return;
        const linePage = linePages(context);
        let page = started(await linesAfter(null));
        try {
          while (true) {
            const names = await page.names;
            const ahead = page.next && quiet(page.next.then(started));
            yield linePage(page.lines, names);
            if (!ahead) return;
            page = await ahead;
          }
        } finally {
          stopped = true;
        }
      })();
    },

    /**
     * Calls through some of the tenant's numbers (telecom's hotline call history, issue 15): the
     * whole tenant (the caller checked its permission), Vietnam days `from`..`to`, newest first,
     * named and masked like the call history. `numbers` in any form; [] gives an empty page.
     */
    async numberCalls(tenantId: number, q: { numbers: string[]; from: string; to: string; page: number; per_page: number }): Promise<Paged<CallReportRow>> {
      const meta = { page: q.page, per_page: q.per_page };
      if (!q.numbers.length) return { data: [], meta: { ...meta, total: 0 } };
      const filter = { from: vnDayStart(q.from)!, to: new Date(vnDayStart(q.to)!.getTime() + DAY_MS), dids: q.numbers.flatMap(allNumberForms), limit: q.per_page };
      const res = await db.withTenant(tenantId, (tx) => pageTenantCdrs(tx, filter, q.page));
      return { data: await present(tenantId, res.rows), meta: { ...meta, total: res.total } };
    },

    /** Calls per number (stored form) over Vietnam day `day` (today by default): a hotline's "calls today". */
    async callsPerNumber(tenantId: number, day = vnDay(new Date())): Promise<Map<string, number>> {
      const from = vnDayStart(day)!;
      const rows = await db.withTenant(tenantId, (tx) => callsPerDid(tx, from, new Date(from.getTime() + DAY_MS)));
      const out = new Map<string, number>();
      for (const r of rows) out.set(storedForm(r.did), (out.get(storedForm(r.did)) ?? 0) + r.calls);
      return out;
    },

    /**
     * The carrier view: calls through a hotline or trunk per hotline, direction, carrier and
     * destination type, billed by the carrier's rule (DEFAULT_BILLING until carriers are configurable).
     */
    async carrierCalls(v: Viewer, q: CallReportQuery): Promise<CarrierReportRow[]> {
      const filter = await filterOf(v, q, false);
      if (!filter) return [];
      const groups = await db.withTenant(v.tenantId, (tx) => carrierGroups(tx, filter));
      const out = new Map<string, CarrierReportRow>();
      for (const g of groups) {
        // A number of the group's shape (its first six characters, its length) tells carrier and kind.
        const sample = g.head + '0'.repeat(Math.max(0, g.len - g.head.length));
        const carrier = carrierOf(sample);
        const destination = phoneKind(sample);
        const hotline = g.hotline && displayForm(g.hotline);
        const key = `${hotline}|${g.direction}|${carrier}|${destination}`;
        const row = out.get(key) ?? { hotline, direction: g.direction, carrier, destination, calls: 0, answered: 0, billsec: 0, billed_seconds: 0 };
        row.calls += g.calls;
        row.answered += g.answered;
        row.billsec += g.billsec * g.calls;
        row.billed_seconds += billedSeconds(g.billsec, DEFAULT_BILLING[carrier]) * g.calls;
        out.set(key, row);
      }
      return [...out.values()].sort((a, b) => a.hotline.localeCompare(b.hotline) || a.direction.localeCompare(b.direction) || a.carrier.localeCompare(b.carrier) || a.destination.localeCompare(b.destination));
    },

    /**
     * The filter choices: the whole directory for report.view, else what the viewer's scope holds
     * (a manager: their departments, teams and extensions, and the queues; an agent: their own extension).
     */
    /**
     * Click-to-call from a history row: the other party of a call the viewer may see (the outside
     * number, or for an internal call the extension that is not the viewer's own); 404 otherwise.
     */
    async dialOf(v: Viewer, id: number): Promise<DialTarget> {
      const number = await db.withTenant(v.tenantId, async (tx) => {
        const scope = await viewerScope(tx, v);
        const call = await callParties(tx, id, scope?.extensions);
        if (!call) return null;
        const other = outsideNumber(call) ?? (call.caller === (await extensionOfUser(tx, v.userId)) ? call.callee : call.caller);
        return displayForm(other);
      });
      if (!number) throw new AppError('NOT_FOUND');
      return { number };
    },

    async options(v: Viewer): Promise<CallReportOptions> {
      return db.withTenant(v.tenantId, async (tx) => {
        const people = await extensionPeople(tx);
        // A hotline is the tenant's, not a person's: every viewer may filter by it (their scope still bounds the rows).
        const choices = { ...(await filterChoices(tx)), hotlines: (await hotlines(tx)).map((h) => ({ ...h, number: displayForm(h.number), carrier: hotlineCarrier(h.number) ?? h.carrier })) };
        const scope = await viewerScope(tx, v);
        if (!scope) return { extensions: people, ...choices };
        const manages = scope.departmentIds.length + scope.teamIds.length > 0;
        return {
          extensions: people.filter((p) => scope.extensions.includes(p.extension)),
          departments: choices.departments.filter((d) => scope.departmentIds.includes(d.id)),
          teams: choices.teams.filter((t) => scope.teamIds.includes(t.id)),
          queues: manages ? choices.queues : [],
          hotlines: choices.hotlines,
        };
      });
    },
  };
}
