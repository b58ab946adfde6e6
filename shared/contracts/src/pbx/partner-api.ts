import * as v from 'valibot';
import { DESTINATION_VALUES, PAGE_SIZE } from '../constants';
import { INVALID } from './messages';

// ---------------------------------------------------------------------------------------------
// Partner API resources (/pbx): generic REST per resource + the exact SPEC §7 paths as aliases
// ---------------------------------------------------------------------------------------------

/**
 * Path segment of each resource under /pbx/partner/. Generic shape (CodeCompany = the caller's ma_dn,
 * checked against the token; another tenant's code → 403 UNAUTHORIZED_TENANT, nothing changed):
 *   GET    /partner/{r}?CodeCompany&page&page_size&search   → { data, total, page, page_size }
 *   GET    /partner/{r}?CodeCompany&dataType=all            → { data } (every row)
 *   GET    /partner/{r}/{id}?CodeCompany                    → { data }
 *   POST   /partner/{r}?CodeCompany                         → 201 { data }
 *   PUT    /partner/{r}/{id}?CodeCompany                    → { data }
 *   DELETE /partner/{r}/{id}?CodeCompany                    → 204
 */
export const PBX_RESOURCES = {
  number: 'number',
  inbound: 'inbound',
  ringGroup: 'group-inbounds',
  queue: 'queues',
  ivr: 'ivr_detail',
  notification: 'message',
  timeCondition: 'time-condition',
  timeGroup: 'time-group',
  greeting: 'greeting',
  moh: 'moh',
  lastCall: 'last-calls',
  outbound: 'rule',
  blockedIn: 'blocked-in',
  blockedOut: 'blocked-out',
} as const;
export type PbxResource = (typeof PBX_RESOURCES)[keyof typeof PBX_RESOURCES];

const intFromQuery = (min: number, maxValue: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(min), v.maxValue(maxValue)), fallback);

/** SPEC §3 "Inbound list filter" (page, page_size, search, filter_action), used by every PBX list. */
export const PbxListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  page_size: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  /** Destination type filter of the inbound list; "" = all. */
  filter_action: v.optional(v.union([v.literal(''), v.picklist(DESTINATION_VALUES)], INVALID), ''),
  dataType: v.optional(v.picklist(['all', ''], INVALID), ''),
  CodeCompany: v.optional(v.string()),
  ma_dn: v.optional(v.string()),
});
export type PbxListQuery = v.InferOutput<typeof PbxListQuerySchema>;
export interface PbxPage<T> {
  data: T[];
  total: number;
  page: number;
  page_size: number;
}

/** POST /importInbound (multipart: file = CSV or .xlsx; columns did, caller_pattern, destination_type, destination_target, description). */
export const IMPORT_INBOUND_COLUMNS = ['did', 'caller_pattern', 'destination_type', 'destination_target', 'description'] as const;
export const IMPORT_MAX_ROWS = 2000;
export interface ImportRowError {
  /** 1-based row of the sheet, counting the header as row 1. */
  row: number;
  did: string;
  message: string;
}
export interface ImportInboundResult {
  imported: number;
  refused: ImportRowError[];
}
