import {
  DNC_IMPORT_MAX_ERRORS, DNC_MSG, displayForm, storedForm, storedSearchForm, vnDay, vnDayStart,
  type ConsentInput, type ConsentListQuery, type ConsentRecord, type DncImportResult, type DncInput, type DncListQuery, type DncNumber, type DncRowError, type DncSource, type DncSummary, type Paged,
} from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError, ConflictError } from '../../http/errors';
import { phoneMasker } from '../settings/settings.service';
import { canonicalNumber } from './decree91.service';
import { importDncNumbers } from './decree91.repository';
import * as repo from './dnc.repository';

/**
 * The do-not-call lists on the screens (issue 33, ADR 0049): list (masked per the tenant), add and
 * remove one number, import a file of hundreds of thousands (batched inserts, one transaction).
 */

/** The numbers of a file: the first cell of each row that is a number; a header line is no error. */
export function numbersOfRows(rows: string[][]): { numbers: string[]; rows: number; invalid: number; errors: DncRowError[] } {
  const numbers: string[] = [];
  const errors: DncRowError[] = [];
  let read = 0;
  let invalid = 0;
  rows.forEach((cells, i) => {
    const filled = cells.map((c) => c.trim()).filter((c) => c !== '');
    if (!filled.length) return;
    const hit = filled.map(canonicalNumber).find((n): n is string => n !== null);
    // A first line without any digit is the header ("Số điện thoại").
    if (!hit && i === 0 && !/\d/.test(filled.join(''))) return;
    read++;
    if (hit) numbers.push(hit);
    else {
      invalid++;
      if (errors.length < DNC_IMPORT_MAX_ERRORS) errors.push({ row: i + 1, value: filled[0].slice(0, 40), message: DNC_MSG.badNumber });
    }
  });
  return { numbers, rows: read, invalid, errors };
}

/** A number's beginning as typed (0912…, +84912…, 84912…, 1900…) in the stored form, or null. */
function searchPrefix(term: string): string | null {
  const digits = term.replace(/[\s.()-]/g, '');
  if (/^\+?84\d*$/.test(digits) || /^1[89]\d*$/.test(digits)) return digits.replace('+', '');
  return storedSearchForm(term);
}

export function createDncService(db: Db) {
  const shown = (hide: ((p: string) => string) | null) => (r: repo.DncRow): DncNumber => {
    const national = displayForm(r.number);
    return { ...r, number: hide ? hide(national) : national };
  };
  const shownConsent = (hide: ((p: string) => string) | null) => (r: repo.ConsentRow): ConsentRecord => {
    const national = displayForm(r.number);
    return { ...r, number: hide ? hide(national) : national };
  };
  return {
    async list(tenantId: number, q: DncListQuery): Promise<Paged<DncNumber>> {
      const hide = await phoneMasker(db, tenantId);
      const prefix = q.search ? searchPrefix(q.search) : null;
      if (q.search && !prefix) return { data: [], meta: { page: q.page, per_page: q.per_page, total: 0 } };
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listDnc(tx, q, prefix));
      return { data: rows.map(shown(hide)), meta: { page: q.page, per_page: q.per_page, total } };
    },

    summary: (tenantId: number): Promise<DncSummary> => db.withTenant(tenantId, repo.summary),

    async add(tenantId: number, x: DncInput): Promise<DncNumber> {
      const hide = await phoneMasker(db, tenantId);
      const row = await db.withTenant(tenantId, (tx) => repo.insertOne(tx, tenantId, storedForm(x.number), x.source, x.note));
      if (!row) throw new ConflictError(DNC_MSG.exists, [{ field: 'number', message: DNC_MSG.exists }]);
      return shown(hide)(row);
    },

    async remove(tenantId: number, id: number): Promise<void> {
      if (!(await db.withTenant(tenantId, (tx) => repo.removeOne(tx, id)))) throw new AppError('NOT_FOUND');
    },

    async consents(tenantId: number, q: ConsentListQuery): Promise<Paged<ConsentRecord>> {
      const hide = await phoneMasker(db, tenantId);
      const prefix = q.search ? searchPrefix(q.search) : null;
      if (q.search && !prefix) return { data: [], meta: { page: q.page, per_page: q.per_page, total: 0 } };
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listConsents(tx, q, prefix));
      return { data: rows.map(shownConsent(hide)), meta: { page: q.page, per_page: q.per_page, total } };
    },

    /** Records a consent; agreed today is agreed now (so it is newer than a DNC entry of this morning). */
    async recordConsent(tenantId: number, userId: number, x: ConsentInput): Promise<ConsentRecord> {
      const hide = await phoneMasker(db, tenantId);
      const now = new Date();
      const agreedAt = x.agreed_on === vnDay(now) ? now : vnDayStart(x.agreed_on)!;
      const row = await db.withTenant(tenantId, async (tx) => repo.insertConsentRow(tx, tenantId, {
        number: storedForm(x.number), source: x.source, agreed_at: agreedAt, lifts_window: x.lifts_window, lifts_cap: x.lifts_cap,
        overrides_dnc: x.overrides_dnc, note: x.note, recorded_by: await repo.userName(tx, userId),
      }));
      return shownConsent(hide)(row);
    },

    /** A file's numbers into one list; `replace` empties that list first (a new national file). All or nothing. */
    async importRows(tenantId: number, source: DncSource, rows: string[][], replace: boolean): Promise<DncImportResult> {
      const file = numbersOfRows(rows);
      if (!file.rows) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: DNC_MSG.emptyFile }]);
      const added = await db.withTenant(tenantId, async (tx) => {
        if (replace) await repo.clearSource(tx, source);
        return importDncNumbers(tx, tenantId, source, file.numbers);
      });
      return { rows: file.rows, added, already: file.numbers.length - added, invalid: file.invalid, errors: file.errors };
    },
  };
}
