import {
  billedSeconds, carrierOf, DEFAULT_BILLING, displayForm, phoneKind, PAGE_SIZE, RESULT_DISPOSITION, resultOf, resultReason, vnDay, vnDayStart,
  type CallReportOptions, type CallReportQuery, type CarrierReportRow, type CallReportRow, type Paged,
} from '@tongdai/contracts';
import type { Db } from '../../db/db';
import type { CdrRow } from '../cdr/cdr';
import { listTenantCdrLines, listTenantCdrs, pageTenantCdrs, type CdrFilter, type CdrRecord, type LineKey } from '../cdr/cdr.service';
import { createCustomersService } from '../customers/customers.service';
import { phoneMasker } from '../settings/settings.service';
import { lineCells, outsideNumber, outsideNumbers } from './export-lines';
import { carrierGroups, extensionPeople, filterChoices } from './call-history.repository';
import { totals } from './read-model';
import { reportWho } from './report-filters';
import { viewerScope, type Viewer } from './viewer-scope';

const PATH_TYPES = new Set(['ivr', 'queue', 'group']);
const DAY_MS = 86_400_000;
/** Rows per keyset page of an export (ADR 0029): one short transaction each, so memory stays flat. */
const EXPORT_PAGE = 5000;

/** What every page of one answer shares: the people on the extensions and the tenant's masking. */
export async function callContext(db: Db, tenantId: number) {
  const [people, mask] = await Promise.all([db.withTenant(tenantId, extensionPeople), phoneMasker(db, tenantId)]);
  return {
    nameOf: new Map(people.map((p) => [p.extension, p.name])),
    // Outside numbers read as everywhere else (ADR 0016: answered 0…), then masked per the setting.
    hide: (n: string) => (mask ? mask(displayForm(n)) : displayForm(n)),
  };
}

/** Call history (issue 13): filtered CDRs of a tenant, scoped to what the viewer may see, with names, customers and masking. */
export function createCallHistoryService(db: Db) {
  const customers = createCustomersService(db);

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
      };
    });
  }

  /** Names, customers and masking for one page of records. */
  async function present(tenantId: number, records: CdrRecord[], context?: Awaited<ReturnType<typeof callContext>>): Promise<CallReportRow[]> {
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
        answered_by: r.extension ? { extension: r.extension, name: nameOf.get(r.extension) ?? '' } : null,
        wait: r.answered_at ? Math.max(0, Math.round((Date.parse(r.answered_at) - Date.parse(r.started_at)) / 1000)) : r.duration,
        billsec: r.billsec,
        result: resultOf(r.disposition),
        reason: resultReason(r.disposition, r.sip_code, r.reason),
        customer: customer ? { id: customer.id, name: customer.name, phone: hide(customer.phone) } : null,
      };
    });
  }

  return {
    /** A numbered page with its total (no `cursor` in the query), else a keyset page with `next`. */
    async list(v: Viewer, q: CallReportQuery, answeredOnly = false): Promise<Paged<CallReportRow> | { data: CallReportRow[]; next: string | null }> {
      const perPage = Number(q.per_page) || PAGE_SIZE;
      const page = Number(q.page) || 1;
      const filter = await filterOf(v, q, answeredOnly);
      if (q.cursor !== undefined) {
        if (!filter) return { data: [], next: null };
        const res = await db.withTenant(v.tenantId, (tx) => listTenantCdrs(tx, { ...filter, limit: perPage, cursor: q.cursor || null }));
        return { data: await present(v.tenantId, res.rows), next: res.next };
      }
      if (!filter) return { data: [], meta: { page, per_page: perPage, total: 0 } };
      const res = await db.withTenant(v.tenantId, async (tx) => {
        // The total of a filter the rollups hold (direction, result, queue over whole days) is the read
        // model's count (ADR 0029): counting a month of records took a second at 10 M. Extensions and
        // number searches are counted from the records (their own indexes bound it).
        const result = answeredOnly ? 'answered' : q.result;
        const total = filter.extensions || filter.scope || filter.number
          ? undefined
          : (await totals(tx, { from: filter.from, to: filter.to, ...(filter.direction && { direction: filter.direction }), ...(result && { result }), ...(filter.queueId !== undefined && { queueId: filter.queueId }) })).calls;
        return pageTenantCdrs(tx, { ...filter, limit: perPage }, page, total);
      });
      return { data: await present(v.tenantId, res.rows), meta: { page, per_page: perPage, total: res.total } };
    },

    /**
     * The filtered calls as export cells, page by page: every row the pages would show, in the
     * same order, masked the same way (CSV and XLSX both read this). The filters are checked
     * before it resolves, so a bad filter is a 400 before the first byte. Keyset pages of
     * EXPORT_PAGE lines (only the columns a line shows), one short transaction each, the next
     * read while one is presented: memory stays flat however many rows there are (ADR 0029).
     */
    async exportPages(v: Viewer, q: CallReportQuery, answeredOnly = false): Promise<AsyncGenerator<string[][]>> {
      const filter = await filterOf(v, q, answeredOnly);
      const context = filter && (await callContext(db, v.tenantId));
      // A page of lines with its customers' names: the next one is read, and its customers looked
      // up, while one is written.
      const pageOf = (after: LineKey | null) =>
        db.withTenant(v.tenantId, (tx) => listTenantCdrLines(tx, { ...filter!, limit: EXPORT_PAGE }, after)).then(async (page) => ({
          ...page,
          names: await customers.namesByPhones(v.tenantId, outsideNumbers(page.rows)),
        }));
      return (async function* () {
        if (!filter || !context) return;
        let page = await pageOf(null);
        while (true) {
          const next = page.next ? pageOf(page.next) : null;
          next?.catch(() => undefined); // a download cancelled meanwhile leaves it unread, not unhandled
          yield lineCells(page.rows, context, page.names);
          if (!next) return;
          page = await next;
        }
      })();
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
    async options(v: Viewer): Promise<CallReportOptions> {
      return db.withTenant(v.tenantId, async (tx) => {
        const people = await extensionPeople(tx);
        const choices = await filterChoices(tx);
        const scope = await viewerScope(tx, v);
        if (!scope) return { extensions: people, ...choices };
        const manages = scope.departmentIds.length + scope.teamIds.length > 0;
        return {
          extensions: people.filter((p) => scope.extensions.includes(p.extension)),
          departments: choices.departments.filter((d) => scope.departmentIds.includes(d.id)),
          teams: choices.teams.filter((t) => scope.teamIds.includes(t.id)),
          queues: manages ? choices.queues : [],
        };
      });
    },
  };
}
