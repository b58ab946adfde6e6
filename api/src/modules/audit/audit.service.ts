import { auditCells, type AuditEntry, type AuditOptions, type AuditQuery, type Paged } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import * as repo from './audit.repository';

/** Lines read per export page (each its own short transaction). */
const EXPORT_PAGE = 500;

/** The audit log of administrative changes (issue 42, ADR 0057): the database writes it, this reads it. */
export function createAuditService(db: Db) {
  return {
    async list(tenantId: number, q: AuditQuery): Promise<Paged<AuditEntry>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listEntries(tx, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },

    async options(tenantId: number): Promise<AuditOptions> {
      return { users: await db.withTenant(tenantId, repo.actors) };
    },

    /** Every line the filters match, newest first, as export cells, page by page (keyset: lines written meanwhile do not shift it). */
    async exportPages(tenantId: number, q: AuditQuery): Promise<AsyncGenerator<string[][]>> {
      return (async function* () {
        let after: { at: string; id: number } | null = null;
        for (;;) {
          const page: AuditEntry[] = await db.withTenant(tenantId, (tx) => repo.entriesAfter(tx, q, after, EXPORT_PAGE));
          if (page.length) yield page.map(auditCells);
          if (page.length < EXPORT_PAGE) return;
          const last = page[page.length - 1];
          after = { at: last.at, id: last.id };
        }
      })();
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
