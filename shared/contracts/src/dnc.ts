import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { DNC_SOURCES, type DncSource } from './decree91';
import { MSG } from './messages';
import { significantNumber } from './phone';
import { vnDay, vnDayStart } from './reports';
import { intFromQuery } from './surveys';

/**
 * Do-not-call lists (issue 33, ADR 0049): the tenant's own list (no campaign calls it) and the national
 * "Danh sách không quảng cáo" imported as a file (no advertising call). Numbers are stored 84….
 */

export const DNC_SOURCE_LABELS: Record<DncSource, string> = {
  tenant: 'Danh sách riêng của doanh nghiệp',
  national: 'Danh sách không quảng cáo quốc gia',
};

/** The list a row is on, short (a column of the list). */
export const DNC_SOURCE_SHORT: Record<DncSource, string> = { tenant: 'Riêng', national: 'Quốc gia' };

/** Rows of one import file: the national list is hundreds of thousands of numbers. */
export const DNC_IMPORT_MAX_ROWS = 500_000;
/** The per-row errors an import answers (the counts say how many there were in all). */
export const DNC_IMPORT_MAX_ERRORS = 200;

export const DNC_MSG = {
  badNumber: 'Số điện thoại không hợp lệ (0…, 84… hoặc +84…)',
  exists: 'Số này đã có trong danh sách',
  emptyFile: 'Tệp không có số điện thoại nào',
  repeated: 'Số lặp lại trong tệp',
} as const;

const INVALID = 'Giá trị không hợp lệ';

/** POST dnc-numbers: one number added by hand, with a note (why it must not be called). */
export const DncInputSchema = v.object({
  number: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.check((n) => significantNumber(n) !== null, DNC_MSG.badNumber)), { abortPipeEarly: true }),
  source: v.optional(v.picklist(DNC_SOURCES, INVALID), 'tenant'),
  note: v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(500, 'Tối đa 500 ký tự')), ''),
});
export type DncInput = v.InferOutput<typeof DncInputSchema>;

/** GET dnc-numbers: pages, a number's beginning as written (0912…, 84912…), one list or both. */
export const DncListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(20, INVALID)), ''),
  source: v.optional(v.picklist(['', ...DNC_SOURCES], INVALID), ''),
});
export type DncListQuery = v.InferOutput<typeof DncListQuerySchema>;

export interface DncNumber {
  id: number;
  /** As dialled in Vietnam (0…; stored 84…), masked as the tenant's settings say. */
  number: string;
  source: DncSource;
  note: string;
  created_at: string;
}

/** How many numbers each list holds. */
export type DncSummary = Record<DncSource, number>;

/** One file row refused: its line (1-based), what it held, why. */
export interface DncRowError {
  row: number;
  value: string;
  message: string;
}

export interface DncImportResult {
  /** Non-blank rows read. */
  rows: number;
  /** Numbers new to the list. */
  added: number;
  /** Valid numbers already on the list (or repeated in the file). */
  already: number;
  invalid: number;
  /** The first DNC_IMPORT_MAX_ERRORS refused rows. */
  errors: DncRowError[];
}

/**
 * Tenant surface (/t/{ma_dn}/…; dnc.view reads, dnc.edit writes):
 * - `list`: GET ?DncListQuery → Paged<DncNumber>; POST DncInput → 201 One<DncNumber>, 409 CONFLICT
 *   (DNC_MSG.exists, field `number`) when already on that list.
 * - `one(id)`: DELETE → 204.
 * - `summary`: GET → { data: DncSummary }.
 * - `file`: POST multipart (file: CSV/XLSX/plain text, one number a row — the first cell that is a
 *   number, a header line allowed; source: tenant | national; replace: "true" empties that list
 *   first, in the same transaction) → { data: DncImportResult }. Bad rows do not stop the valid ones.
 */
export const DNC_API = {
  list: 'dnc-numbers',
  one: (id: number | string) => `dnc-numbers/${id}`,
  summary: 'dnc-numbers/summary',
  file: 'dnc-numbers/file',
} as const;

// ---------------------------------------------------------------------------------------------
// Consents: what a subscriber agreed to ("trừ trường hợp đã có thỏa thuận khác với người sử dụng")
// ---------------------------------------------------------------------------------------------

export const CONSENT_MSG = {
  sourceRequired: 'Nhập nguồn ghi nhận sự đồng ý (cuộc gọi, hợp đồng, biểu mẫu…)',
  badDay: 'Ngày không hợp lệ hoặc ở tương lai',
} as const;

/**
 * POST consents: the latest agreement of a number is the one in force (one that lifts nothing
 * withdraws it). `agreed_on` is the Vietnam day it was agreed (today: now).
 */
export const ConsentInputSchema = v.object({
  number: DncInputSchema.entries.number,
  source: v.pipe(v.string(CONSENT_MSG.sourceRequired), v.trim(), v.nonEmpty(CONSENT_MSG.sourceRequired), v.maxLength(200, 'Tối đa 200 ký tự')),
  agreed_on: v.pipe(
    v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required),
    v.check((d) => vnDayStart(d) !== null && d <= vnDay(new Date()), CONSENT_MSG.badDay),
  ),
  lifts_window: v.optional(v.boolean(INVALID), false),
  lifts_cap: v.optional(v.boolean(INVALID), false),
  overrides_dnc: v.optional(v.boolean(INVALID), false),
  note: DncInputSchema.entries.note,
});
export type ConsentInput = v.InferOutput<typeof ConsentInputSchema>;

/** What a consent lifts, as the working screen and the list say it. */
export interface ConsentTerms {
  source: string;
  agreed_at: string;
  lifts_window: boolean;
  lifts_cap: boolean;
  overrides_dnc: boolean;
}

export interface ConsentRecord extends ConsentTerms {
  id: number;
  /** As dialled (0…), masked as the tenant's settings say. */
  number: string;
  note: string;
  recorded_by: string;
  created_at: string;
}

export const ConsentListQuerySchema = v.object({
  page: DncListQuerySchema.entries.page,
  per_page: DncListQuerySchema.entries.per_page,
  search: DncListQuerySchema.entries.search,
});
export type ConsentListQuery = v.InferOutput<typeof ConsentListQuerySchema>;

/**
 * Tenant surface: `list` GET ?page&per_page&search (a number's beginning) → Paged<ConsentRecord>
 * (campaign.view), newest first; POST ConsentInput → 201 One<ConsentRecord> (campaign.edit).
 * Consents are evidence: not edited or deleted; a later one replaces them.
 */
export const CONSENT_API = { list: 'consents' } as const;
