import {
  ERROR_MESSAGES, TELECOM_MSG, displayForm, hotlineCarrier, hotlineKind, nationalForm, storedForm, storedSearchForm, vnDay,
  type CallReportRow, type Hotline, type HotlineInput, type HotlineUpdate, type Paged, type TelecomCallLogQuery, type TelecomListQuery,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { ConflictError, isForeignKeyViolation, isUniqueViolation, violationText } from '../../http/errors';
import { found, loadPbxConfig, numberWrites, type Caller } from '../pbx/pbx.service';
import { createCallHistoryService } from '../reports/call-history.service';
import { channelsInUse } from '../trunks/trunks.service';
import * as repo from './hotlines.repository';
import { fieldError } from './switchboards.service';

/**
 * Hotlines (issue 15): numbers of the tenant bound to a switchboard. A hotline is a row of
 * /numbers with its inbound route (no caller pattern) to the chosen destination, written through
 * the PBX's own writes (destination and loop checks) in one transaction. A number belongs to one
 * tenant: another tenant's is refused (409). A number already in /numbers but not yet a hotline
 * becomes one (bound to the switchboard, its default route set to the destination): that is what
 * an admin connecting an existing DID through a carrier means; an existing hotline is a 409.
 * `reports`: where the hotlines' call figures and call log are read (the reports' database, ADR 0058).
 */
export function createHotlinesService(db: Db, reports: Db = db) {
  const history = createCallHistoryService(reports);

  const present = async (tenantId: number, rows: repo.HotlineRow[]): Promise<Hotline[]> => {
    const today = rows.length ? await history.callsPerNumber(tenantId) : new Map<string, number>();
    const inUse = channelsInUse(tenantId);
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      kind: hotlineKind(r.number) ?? 'landline',
      carrier: hotlineCarrier(r.number) ?? r.switchboard_carrier,
      switchboard_id: r.switchboard_id,
      switchboard_name: r.switchboard_name,
      switchboard_status: r.switchboard_status,
      destination: r.destination,
      active: r.active,
      description: r.description,
      calls_today: today.get(storedForm(r.number)) ?? 0,
      channels_in_use: inUse.get(r.switchboard_id) ?? 0,
      advertising_identity: r.advertising_identity,
      advertising_name: r.advertising_name,
      advertising_registered_on: r.advertising_registered_on,
      max_calls_per_minute: r.max_calls_per_minute,
      created_at: r.created_at,
    }));
  };
  const one = async (tenantId: number, row: repo.HotlineRow | null) => (await present(tenantId, [found(row)]))[0];

  /** Another tenant's number met by the unique index: the one-owner rule, as a 409 naming the field. */
  const write = <T>(c: Caller, fn: (tx: Queryable) => Promise<T>) =>
    db.withTenant(c.tenantId, fn).catch((e: unknown) => {
      if (isUniqueViolation(e) && violationText(e).includes('pbx_numbers_number_key')) {
        throw new ConflictError(TELECOM_MSG.numberTaken, [{ field: 'number', message: TELECOM_MSG.numberTaken }]);
      }
      throw e;
    });

  const switchboardOf = async (tx: Queryable, id: number) => {
    if (!(await repo.switchboardExists(tx, id))) throw fieldError('switchboard_id', TELECOM_MSG.switchboardRequired);
  };

  /** Sets the number's default route (no caller pattern) to `destination`, creating it if missing. */
  const setDefaultRoute = async (tx: Queryable, c: Caller, did: string, x: Pick<HotlineInput, 'destination' | 'description'>, inboundId: number | null) =>
    numberWrites.saveInbound(tx, c, { did: displayForm(did), caller_pattern: '', destination: x.destination, description: x.description }, inboundId ?? undefined);

  return {
    async list(tenantId: number, q: TelecomListQuery): Promise<Paged<Hotline>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listHotlines(tx, q, storedSearchForm(q.search)));
      return { data: await present(tenantId, rows), meta: { page: q.page, per_page: q.per_page, total } };
    },
    all: async (tenantId: number): Promise<Hotline[]> => present(tenantId, await db.withTenant(tenantId, repo.allHotlines)),
    get: async (tenantId: number, id: number): Promise<Hotline> => one(tenantId, await db.withTenant(tenantId, (tx) => repo.getHotline(tx, id))),

    async create(c: Caller, x: HotlineInput): Promise<Hotline> {
      const stored = storedForm(x.number);
      const row = await write(c, async (tx) => {
        await switchboardOf(tx, x.switchboard_id);
        const existing = await repo.numberByStored(tx, stored);
        if (existing?.switchboard_id != null) throw new ConflictError(TELECOM_MSG.numberExists, [{ field: 'number', message: TELECOM_MSG.numberExists }]);
        const id = existing?.id ?? (await numberWrites.saveNumber(tx, c, { number: x.number, description: x.description, active: true })).id;
        await repo.bindNumber(tx, id, x.switchboard_id);
        const hotline = found(await repo.getHotline(tx, id));
        await setDefaultRoute(tx, c, hotline.number, x, hotline.inbound_id);
        return repo.getHotline(tx, id);
      });
      return one(c.tenantId, row);
    },

    /**
     * Switchboard, destination (its default route), description, active, the advertising identity
     * (Decree 91) and the dialer's calls-per-minute cap (each absent keeps it); the number itself stays.
     */
    async update(c: Caller, id: number, x: HotlineUpdate): Promise<Hotline> {
      const row = await write(c, async (tx) => {
        const before = found(await repo.getHotline(tx, id));
        await switchboardOf(tx, x.switchboard_id);
        await numberWrites.saveNumber(tx, c, { number: before.number, description: x.description, active: x.active }, id);
        await repo.bindNumber(tx, id, x.switchboard_id);
        if (x.advertising_identity !== undefined) {
          await repo.setIdentity(tx, id, { advertising_identity: x.advertising_identity, advertising_name: x.advertising_name, advertising_registered_on: x.advertising_registered_on });
        }
        if (x.max_calls_per_minute !== undefined) await repo.setDialRate(tx, id, x.max_calls_per_minute);
        await setDefaultRoute(tx, c, before.number, x, before.inbound_id);
        return repo.getHotline(tx, id);
      });
      return one(c.tenantId, row);
    },

    /** The number goes with its inbound routes; refused while an outbound rule presents it or another object points at it. */
    async remove(c: Caller, id: number): Promise<void> {
      await write(c, async (tx) => {
        const hotline = found(await repo.getHotline(tx, id));
        const config = await loadPbxConfig(tx, c.tenantId, c.maDn);
        const national = nationalForm(hotline.number);
        if (config.outboundRules.some((r) => r.caller_id && nationalForm(r.caller_id) === national)) {
          throw new ConflictError(TELECOM_MSG.hotlineInUse);
        }
        for (const route of await repo.routesOfDid(tx, hotline.number)) await numberWrites.removeInbound(tx, c, route);
        await numberWrites.removeNumber(tx, c, id);
      }).catch((e: unknown) => {
        // The database is the authority on what still points at the number (nothing was removed): a
        // campaign calling from it (campaigns' key, on delete restrict, named on both engines) says so;
        // any other reference is the generic conflict, never a 500.
        if (!isForeignKeyViolation(e)) throw e;
        throw new ConflictError(/\bcampaigns\b/.test(violationText(e)) ? TELECOM_MSG.hotlineInCampaign : ERROR_MESSAGES.CONFLICT);
      });
    },

    /** Calls through the tenant's hotlines (one, or all), Vietnam days from..to (today by default). */
    async calls(tenantId: number, q: TelecomCallLogQuery): Promise<Paged<CallReportRow>> {
      const rows = await db.withTenant(tenantId, repo.allHotlines);
      const chosen = q.hotline_id === '' ? rows : rows.filter((r) => r.id === q.hotline_id);
      if (q.hotline_id !== '' && !chosen.length) throw fieldError('hotline_id', TELECOM_MSG.unknownHotline);
      const today = vnDay(new Date());
      const from = q.from ?? q.to ?? today;
      const to = q.to ?? q.from ?? today;
      return history.numberCalls(tenantId, { numbers: chosen.map((r) => r.number), from, to, page: Number(q.page), per_page: Number(q.per_page) });
    },
  };
}
export type HotlinesService = ReturnType<typeof createHotlinesService>;
