import { ERROR_MESSAGES, storedForm, storedSearchForm, type PbxListQuery, type PbxPage } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError, ConflictError, isForeignKeyViolation, isUniqueViolation, violationText } from '../../http/errors';
import { describeLoop, findLoop } from '../routing';
import { loadPbxConfig } from './config';
import { LoopError } from './pbx.errors';
import { deleteRow, getRow, getRowBy, insertRow, listRows, allRows, updateRow, type PbxRow } from './pbx.repository';
import { INBOUND, NUMBER, type AnyPbxDef } from './pbx.resources';
import { checkRefs, refuseIfUsed } from './references';

/** Who is asking: the tenant from the token (never from the request). */
export interface Caller {
  tenantId: number;
  maDn: string;
}

export function found<T>(value: T | null | false | undefined): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

/** A unique index or a foreign key met by a concurrent write (or a row outside the configuration pointing at it): the same 409 as the checks. */
export function conflictOf(def: AnyPbxDef, e: unknown): never {
  if (isUniqueViolation(e)) {
    const text = violationText(e);
    const c = def.conflicts.find((x) => text.includes(x.constraint)) ?? def.conflicts[0];
    if (c) throw new ConflictError(c.message, [{ field: c.field, message: c.message }]);
    throw new ConflictError(ERROR_MESSAGES.CONFLICT);
  }
  if (isForeignKeyViolation(e)) {
    const text = violationText(e);
    throw new ConflictError(def.usedBy?.find((u) => text.includes(u.constraint))?.message ?? ERROR_MESSAGES.CONFLICT);
  }
  throw e;
}

/**
 * Creates (id undefined) or updates one row inside the caller's transaction: references checked
 * against the tenant's configuration, then written, then the configuration as it now stands is
 * checked for loops and for objects left pointing at a key the row no longer has.
 */
export async function saveRow(tx: Queryable, c: Caller, def: AnyPbxDef, input: Record<string, unknown>, id?: number): Promise<PbxRow> {
  const before = await loadPbxConfig(tx, c.tenantId, c.maDn);
  const previous = id === undefined ? null : found(await getRow(tx, def, id));
  if (def.refs) checkRefs(before, def.refs(input));
  const cols = def.columns(input, { config: before, now: new Date() });
  const rowId = id ?? (await insertRow(tx, def.table, c.tenantId, cols));
  if (id !== undefined) found(await updateRow(tx, def.table, id, cols));
  if (def.children) await def.children(tx, c.tenantId, rowId, input, id === undefined);
  if (def.node || previous) {
    const after = await loadPbxConfig(tx, c.tenantId, c.maDn);
    const loop = def.node ? findLoop(after, { type: def.node, id: rowId }) : null;
    if (loop) throw new LoopError(describeLoop(loop));
    if (previous && def.keys) {
      const kept = new Set(def.keys(found(await getRow(tx, def, rowId)), after));
      refuseIfUsed(after, def.keys(previous, after).filter((k) => !kept.has(k)));
    }
  }
  return found(await getRow(tx, def, rowId));
}

/** Deletes one row unless another object of the tenant points at it (409 naming that object). */
export async function removeRow(tx: Queryable, c: Caller, def: AnyPbxDef, id: number): Promise<void> {
  const row = found(await getRow(tx, def, id));
  if (def.keys) {
    const config = await loadPbxConfig(tx, c.tenantId, c.maDn);
    refuseIfUsed(config, def.keys(row, config));
  }
  found(await deleteRow(tx, def.table, id));
}

/** Generic REST over one resource definition; every call is one transaction under the caller's tenant. */
export function createPbxService(db: Db, def: AnyPbxDef) {
  const write = <T>(c: Caller, fn: (tx: Queryable) => Promise<T>) => db.withTenant(c.tenantId, fn).catch((e) => conflictOf(def, e));
  // Rows as the API answers them (stored phone numbers in their national form, ADR 0016).
  const shown = (row: PbxRow): PbxRow => (def.present ? (def.present(row) as PbxRow) : row);
  const all = async (c: Caller) => (await db.withTenant(c.tenantId, (tx) => allRows(tx, def))).map(shown);
  return {
    all,
    async list(c: Caller, q: PbxListQuery): Promise<PbxPage<PbxRow> | { data: PbxRow[] }> {
      if (q.dataType === 'all') return { data: await all(c) };
      const { rows, total } = await db.withTenant(c.tenantId, (tx) => listRows(tx, def, q, storedSearchForm(q.search ?? '')));
      return { data: rows.map(shown), total, page: q.page, page_size: q.page_size };
    },
    get: async (c: Caller, id: number) => shown(found(await db.withTenant(c.tenantId, (tx) => getRow(tx, def, id)))),
    /** The number resource read by its digits, in any written form (/partner/number/{number}). */
    byNumber: async (c: Caller, number: string) => shown(found(await db.withTenant(c.tenantId, (tx) => getRowBy(tx, def, 'number', storedForm(number))))),
    create: async (c: Caller, input: Record<string, unknown>) => shown(await write(c, (tx) => saveRow(tx, c, def, input))),
    update: async (c: Caller, id: number, input: Record<string, unknown>) => shown(await write(c, (tx) => saveRow(tx, c, def, input, id))),
    remove: (c: Caller, id: number) => write(c, (tx) => removeRow(tx, c, def, id)),
  };
}
export type PbxService = ReturnType<typeof createPbxService>;

/**
 * For the modules whose writes the PBX configuration depends on (subscribers) and the Kamailio
 * tenant lookup: the configuration as routing reads it, the reference check before a delete, and
 * its freshness (a write marks it changed; the lookup follows the generation).
 */
export { loadPbxConfig } from './config';
export { refuseIfUsed } from './references';
export { configGeneration, pbxConfigChangedElsewhere, relayConfigChanges } from './config-cache';
export { invalidateRoutingOnWrite } from './config-freshness';

/**
 * The number and inbound-route writes as the PBX makes them (destination and loop checks
 * included), inside the caller's transaction: telecom's hotlines are numbers with a route.
 */
export const numberWrites = {
  saveNumber: (tx: Queryable, c: Caller, input: Record<string, unknown>, id?: number) => saveRow(tx, c, NUMBER, input, id),
  removeNumber: (tx: Queryable, c: Caller, id: number) => removeRow(tx, c, NUMBER, id),
  saveInbound: (tx: Queryable, c: Caller, input: Record<string, unknown>, id?: number) => saveRow(tx, c, INBOUND, input, id),
  removeInbound: (tx: Queryable, c: Caller, id: number) => removeRow(tx, c, INBOUND, id),
};
