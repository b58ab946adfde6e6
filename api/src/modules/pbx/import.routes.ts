import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  DESTINATION_ID_TYPES,
  DESTINATION_LABELS,
  DESTINATION_VALUES,
  IMPORT_INBOUND_COLUMNS,
  IMPORT_MAX_ROWS,
  InboundInputSchema,
  foldText,
  MSG,
  nationalForm,
  PBX_MSG,
  storedForm,
  type DestinationValue,
  type ImportInboundResult,
  type ImportRowError,
  type InboundInput,
  type PbxConfig,
} from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { fieldErrors } from '../../http/validate';
import { loadPbxConfig } from './config';
import { readRows, type SheetRows } from '../../http/sheet';
import { PBX_API_MSG, invalid, pbxGuarded } from './pbx.errors';
import { insertRow } from './pbx.repository';
import { conflictOf } from './pbx.service';
import { INBOUND } from './pbx.resources';
import { checkRefs, REFS } from './references';
import { caller, pbxSchema } from './route-helpers';
import { readUpload } from './pbx-upload';

type Column = (typeof IMPORT_INBOUND_COLUMNS)[number];
const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Case, marks and spacing do not matter in headers and type names: "Loại điểm đến" = loai_diem_den. */
const fold = (s: string) => foldText(s).trim().replace(/[\s-]+/g, '_');

const HEADER_ALIASES: Record<Column, string[]> = {
  did: ['did', 'so_did', 'so_dien_thoai', 'dau_so', 'number'],
  caller_pattern: ['caller_pattern', 'mau_so_goi', 'mau_so_goi_den', 'so_goi_den'],
  destination_type: ['destination_type', 'loai_diem_den', 'action'],
  destination_target: ['destination_target', 'diem_den', 'target'],
  description: ['description', 'mo_ta', 'ghi_chu'],
};
const REQUIRED: Column[] = ['did', 'destination_type', 'destination_target'];
const FIELD_LABELS: Record<string, string> = { did: 'Số DID', caller_pattern: 'Mẫu số gọi', destination: 'Điểm đến', description: 'Mô tả' };

/** Column index of each known header; throws 400 naming the required columns that are missing. */
function columnsOf(header: string[]): Partial<Record<Column, number>> {
  const folded = header.map(fold);
  const at: Partial<Record<Column, number>> = {};
  for (const col of IMPORT_INBOUND_COLUMNS) {
    const i = folded.findIndex((h) => HEADER_ALIASES[col].includes(h));
    if (i >= 0) at[col] = i;
  }
  const missing = REQUIRED.filter((c) => at[c] === undefined);
  if (missing.length) throw invalid([{ field: 'file', message: PBX_API_MSG.importColumns(missing) }]);
  return at;
}

const TYPE_BY_NAME = new Map<string, DestinationValue>([
  ...DESTINATION_VALUES.map((t) => [t, t] as [string, DestinationValue]),
  ...DESTINATION_VALUES.map((t) => [fold(DESTINATION_LABELS[t]), t] as [string, DestinationValue]),
]);

/** Objects a destination of each id type can be named by, in a sheet written by people. */
function namedRows(config: PbxConfig, type: DestinationValue): { id: number; name: string }[] {
  const lists: Partial<Record<DestinationValue, { id: number; name: string }[]>> = {
    ivr: config.ivrs,
    group: config.ringGroups,
    voicemaill: config.ringGroups,
    msg: config.notifications,
    time: config.timeConditions,
    queue: config.queues,
    lastcall: config.lastCalls,
  };
  return lists[type] ?? [];
}

/**
 * The cells of one row as an inbound input, forgiving what spreadsheets do to people's data:
 * a type given by its Vietnamese label, an object by its name, an extension as "101 - Tên",
 * a DID whose leading 0 Excel dropped.
 */
function rawInput(cells: string[], at: Partial<Record<Column, number>>, config: PbxConfig) {
  const cell = (c: Column) => (at[c] === undefined ? '' : (cells[at[c]!] ?? '').trim());
  let did = cell('did');
  const numbers = new Set(config.numbers.map((n) => n.number));
  if (!numbers.has(did) && numbers.has(nationalForm(did))) did = nationalForm(did);
  const typeCell = cell('destination_type');
  const type = TYPE_BY_NAME.get(typeCell) ?? TYPE_BY_NAME.get(fold(typeCell)) ?? typeCell;
  let target = cell('destination_target');
  if ((DESTINATION_ID_TYPES as string[]).includes(type) && target && !/^\d+$/.test(target)) {
    const match = namedRows(config, type as DestinationValue).find((r) => r.name.toLowerCase() === target.toLowerCase());
    if (match) target = String(match.id);
  }
  if ((type === 'direct' || type === 'voicmail') && /^\d+\s+-\s+/.test(target)) target = target.split('-')[0].trim();
  return { did, caller_pattern: cell('caller_pattern'), destination: { type, target }, description: cell('description') };
}

/** Why one row is refused, in Vietnamese ("Thông tin không được để trống" says which column). */
function reason(e: { field: string; message: string }): string {
  if (e.message !== MSG.required) return e.message;
  return `${FIELD_LABELS[e.field.split('.')[0]] ?? e.field}: ${e.message}`;
}

const isBlank = (cells: string[]) => cells.every((c) => !c.trim());
const routeKey = (x: { did: string; caller_pattern: string }) => `${storedForm(x.did)}\u0000${x.caller_pattern}`;

/** Sorts the sheet's rows into inputs to insert and refusals with their row number (header = 1). */
export function checkImport(rows: SheetRows, config: PbxConfig): { valid: InboundInput[]; refused: ImportRowError[] } {
  const [header = [], ...body] = rows;
  const at = columnsOf(header);
  const data = body.map((cells, i) => ({ cells, row: i + 2 })).filter((r) => !isBlank(r.cells));
  if (data.length > IMPORT_MAX_ROWS) throw invalid([{ field: 'file', message: PBX_MSG.importTooMany(IMPORT_MAX_ROWS) }]);
  const existing = new Set(config.inbounds.map(routeKey));
  const seen = new Map<string, number>();
  const valid: InboundInput[] = [];
  const refused: ImportRowError[] = [];
  for (const { cells, row } of data) {
    const raw = rawInput(cells, at, config);
    const refuse = (message: string) => refused.push({ row, did: raw.did, message });
    const parsed = v.safeParse(InboundInputSchema, raw);
    if (!parsed.success) {
      refuse(reason(fieldErrors(parsed.issues)[0]));
      continue;
    }
    try {
      checkRefs(config, REFS.inbound(parsed.output));
    } catch (e) {
      refuse(e instanceof AppError && e.details?.length ? e.details[0].message : PBX_MSG.destinationMissing);
      continue;
    }
    const key = routeKey(parsed.output);
    if (existing.has(key)) refuse(PBX_MSG.inboundTaken);
    else if (seen.has(key)) refuse(`${PBX_MSG.inboundTaken} (trùng dòng ${seen.get(key)})`);
    else {
      seen.set(key, row);
      valid.push(parsed.output);
    }
  }
  return { valid, refused };
}

/** POST /importInbound (SPEC §7): many inbound routes from a CSV or .xlsx, all valid rows in one transaction. */
export function importRoutes(app: FastifyInstance): void {
  const { db } = app.deps;
  app.post('/importInbound', { preHandler: pbxGuarded(INBOUND.perm.create), schema: pbxSchema(INBOUND.tag) }, async (request) => {
    const c = caller(request);
    const form = await readUpload(request, 'file', IMPORT_MAX_BYTES, PBX_API_MSG.importTooLarge(IMPORT_MAX_BYTES / (1024 * 1024)));
    if (!form.file) throw invalid([{ field: 'file', message: PBX_MSG.fileRequired }]);
    const rows = await readRows(form.file.bytes);
    if (!rows) throw invalid([{ field: 'file', message: PBX_MSG.fileType }]);
    const data: ImportInboundResult = await db.withTenant(c.tenantId, async (tx) => {
      const config = await loadPbxConfig(tx, c.tenantId, c.maDn);
      const { valid, refused } = checkImport(rows, config);
      const ctx = { config, now: new Date() };
      for (const input of valid) await insertRow(tx, INBOUND.table, c.tenantId, INBOUND.columns(input, ctx));
      return { imported: valid.length, refused };
    }).catch((e) => conflictOf(INBOUND, e));
    return { data };
  });
}
