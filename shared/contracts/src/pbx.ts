import * as v from 'valibot';
import { MSG } from './messages';
import { DESTINATION_VALUES, PAGE_SIZE, type DestinationValue } from './constants';
import { EXTENSION_PATTERN } from './subscribers';
import { optionalRef, requiredRef } from './ref';

/**
 * PBX configuration (mf-pbx screens, the /pbx partner API, the routing engine): one schema per
 * object, used by the browser forms and the API alike. Every object belongs to one tenant.
 */

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

const max = (n: number) => `Tối đa ${n} ký tự`;
const INVALID = 'Giá trị không hợp lệ';

export const PBX_MSG = {
  nameTaken: 'Tên đã tồn tại',
  numberFormat: 'Số điện thoại chỉ gồm 3–15 chữ số (có thể bắt đầu bằng +)',
  numberTaken: 'Số điện thoại đã được sử dụng',
  didUnknown: 'Số DID không thuộc doanh nghiệp',
  inboundTaken: 'Tuyến gọi vào cho số DID và mẫu số gọi này đã tồn tại',
  callerPattern: 'Mẫu số gọi chỉ gồm chữ số, X, Z, N, [ ], dấu . ở cuối',
  dialPattern: 'Mẫu quay số chỉ gồm chữ số, X, Z, N, [ ], dấu . ở cuối, +, * hoặc #',
  destinationType: 'Chọn loại điểm đến',
  destinationTarget: 'Chọn điểm đến',
  destinationMissing: 'Điểm đến không tồn tại',
  extensionUnknown: (ext: string) => `Máy nhánh ${ext} không tồn tại`,
  membersRequired: 'Chọn ít nhất một máy nhánh',
  duplicateMember: 'Máy nhánh bị trùng',
  duplicateDigit: 'Phím bấm bị trùng',
  digitFormat: 'Phím bấm là 0–9, * hoặc #',
  timeFormat: 'Giờ có dạng HH:MM',
  rangeRequired: 'Nhóm thời gian cần ít nhất một khoảng thời gian',
  timezone: 'Múi giờ không hợp lệ',
  inUse: (what: string) => `Đang được dùng bởi ${what}, không thể xoá`,
  /** Refused at save time: the path names each object of the loop, e.g. IVR "Menu" → … → IVR "Menu". */
  loop: (path: string) => `Cấu hình tạo vòng lặp: ${path}`,
  audioType: 'Chỉ nhận tệp âm thanh WAV hoặc MP3',
  audioTooLarge: (mb: number) => `Tệp âm thanh tối đa ${mb} MB`,
  audioRequired: 'Chọn tệp âm thanh',
  fileRequired: 'Chọn tệp CSV hoặc Excel',
  fileType: 'Chỉ nhận tệp CSV hoặc Excel (.xlsx)',
  importTooMany: (n: number) => `Tối đa ${n} dòng mỗi lần nhập`,
  internationalRefused: 'Không được gọi quốc tế nếu không có tuyến cho phép',
  premiumRefused: 'Không được gọi đầu số dịch vụ giá cao nếu không có tuyến cho phép',
  /** Raised by the destinations fetch when the answer is not 200 (SPEC §7, §8). */
  destinationsFailed: (status: number) => `Không tải được danh sách điểm đến (mã ${status})`,
} as const;

// ---------------------------------------------------------------------------------------------
// Destinations (SPEC §9 option values, spelled exactly, typos included)
// ---------------------------------------------------------------------------------------------

/** Vietnamese label of each destination type; the filter adds "Tất cả" with the empty value. */
export const DESTINATION_LABELS: Record<DestinationValue, string> = {
  ivr: 'IVR',
  direct: 'Máy nhánh',
  group: 'Nhóm đổ chuông',
  fw: 'Chuyển tiếp số ngoài',
  msg: 'Thông báo',
  time: 'Điều kiện thời gian',
  voicmail: 'Hộp thư thoại máy nhánh',
  queue: 'Hàng đợi',
  lastcall: 'Gọi lại người nghe gần nhất',
  voicemaill: 'Hộp thư thoại nhóm',
};
export const DESTINATION_FILTER_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Tất cả' },
  ...DESTINATION_VALUES.map((value) => ({ value, label: DESTINATION_LABELS[value] })),
];

/**
 * What each type's target is:
 * ivr → IVR id, direct → extension, group → ring group id, fw → external number, msg → notification id,
 * time → time condition id, voicmail → extension (its mailbox), queue → queue id,
 * lastcall → last-call rule id, voicemaill → ring group id (the group's shared mailbox).
 */
export interface Destination {
  type: DestinationValue;
  target: string;
}
/** Types whose target is the id of a row (the rest name an extension or an external number). */
export const DESTINATION_ID_TYPES: readonly DestinationValue[] = ['ivr', 'group', 'msg', 'time', 'queue', 'lastcall', 'voicemaill'];

/** Dialled/DID numbers: 3–15 digits, optional leading +. */
export const PBX_NUMBER_PATTERN = /^\+?\d{3,15}$/;

export const DestinationSchema = v.pipe(
  v.object({
    type: v.picklist(DESTINATION_VALUES, PBX_MSG.destinationType),
    target: v.pipe(v.union([v.string(), v.number()], PBX_MSG.destinationTarget), v.transform(String), v.trim(), v.nonEmpty(PBX_MSG.destinationTarget)),
  }, PBX_MSG.destinationType),
  v.check((d) => {
    if (d.type === 'fw') return PBX_NUMBER_PATTERN.test(d.target);
    if (d.type === 'direct' || d.type === 'voicmail') return EXTENSION_PATTERN.test(d.target);
    return /^\d{1,9}$/.test(d.target);
  }, PBX_MSG.destinationTarget),
);
/** A destination that may be absent (null = hang up). */
export const OptionalDestinationSchema = v.optional(v.nullable(DestinationSchema), null);

/** The select value of a destination in forms: "type:target". */
export const encodeDestination = (d: Destination | null | undefined): string => (d ? `${d.type}:${d.target}` : '');
export function decodeDestination(value: string): Destination | null {
  const i = value.indexOf(':');
  if (i <= 0) return null;
  const type = value.slice(0, i) as DestinationValue;
  if (!DESTINATION_VALUES.includes(type)) return null;
  return { type, target: value.slice(i + 1) };
}

/**
 * GET /partner/destinations?CodeCompany=ma_dn (SPEC §7): a nested map type → { target → display name }.
 * fw has no entries (the number is typed).
 */
export type DestinationsMap = Partial<Record<DestinationValue, Record<string, string>>>;
export interface DestinationOption {
  name: string;
  value: string;
  type: DestinationValue;
}
/** Turns the nested map into name/value pairs (value = encodeDestination), in SPEC order then by name. */
export function destinationOptions(map: DestinationsMap): DestinationOption[] {
  const out: DestinationOption[] = [];
  for (const type of DESTINATION_VALUES) {
    const entries = Object.entries(map[type] ?? {}).sort((a, b) => a[1].localeCompare(b[1], 'vi'));
    for (const [target, label] of entries) out.push({ type, value: `${type}:${target}`, name: `${DESTINATION_LABELS[type]}: ${label}` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shared field schemas
// ---------------------------------------------------------------------------------------------

const name = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(255, max(255)));
const text = (n: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(n, max(n))), '');
const int = (min: number, maxValue: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.number(INVALID), v.pipe(v.string(INVALID), v.trim(), v.regex(/^-?\d+$/, 'Phải là số nguyên'), v.transform(Number))], INVALID),
      v.integer('Phải là số nguyên'),
      v.minValue(min, `Tối thiểu ${min}`),
      v.maxValue(maxValue, `Tối đa ${maxValue}`),
    ),
    fallback,
  );
const bool = (fallback: boolean) => v.optional(v.boolean(INVALID), fallback);
const pbxNumber = v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(PBX_NUMBER_PATTERN, PBX_MSG.numberFormat)), {
  abortPipeEarly: true,
});
const extension = v.pipe(v.string(INVALID), v.trim(), v.regex(EXTENSION_PATTERN, INVALID));
const extensionList = v.pipe(
  v.array(extension, PBX_MSG.membersRequired),
  v.minLength(1, PBX_MSG.membersRequired),
  v.maxLength(100, 'Tối đa 100 máy nhánh'),
  v.check((xs) => new Set(xs).size === xs.length, PBX_MSG.duplicateMember),
);

/**
 * Caller-number and dial patterns (Asterisk style, without the leading underscore): digits,
 * X (0-9), Z (1-9), N (2-9), [1-5] classes, and a trailing "." for "one or more of anything".
 * A pattern without wildcards matches that exact number.
 */
export const CALLER_PATTERN = /^(?:[0-9XZNxzn]|\[[0-9-]+\])+\.?$/;
export const DIAL_PATTERN = /^\+?(?:[0-9XZNxzn*#]|\[[0-9-]+\])+\.?$/;

// ---------------------------------------------------------------------------------------------
// Objects
// ---------------------------------------------------------------------------------------------

/** /numbers: the tenant's DIDs (a number belongs to one tenant in the whole platform). */
export const PbxNumberInputSchema = v.object({ number: pbxNumber, description: text(500), active: bool(true) });
export type PbxNumberInput = v.InferOutput<typeof PbxNumberInputSchema>;

/** /inbounds: DID (+ optional caller pattern) → destination. */
export const InboundInputSchema = v.object({
  did: pbxNumber,
  caller_pattern: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(CALLER_PATTERN, PBX_MSG.callerPattern))], PBX_MSG.callerPattern), ''),
  destination: DestinationSchema,
  description: text(500),
});
export type InboundInput = v.InferOutput<typeof InboundInputSchema>;

export const RING_STRATEGIES = ['ringall', 'hunt', 'memoryhunt', 'random'] as const;
export type RingStrategy = (typeof RING_STRATEGIES)[number];
export const RING_STRATEGY_LABELS: Record<RingStrategy, string> = {
  ringall: 'Đổ chuông tất cả',
  hunt: 'Lần lượt theo thứ tự',
  memoryhunt: 'Lần lượt, cộng dồn',
  random: 'Ngẫu nhiên',
};
/** /ringgroup */
export const RingGroupInputSchema = v.object({
  name,
  extensions: extensionList,
  strategy: v.optional(v.picklist(RING_STRATEGIES, INVALID), 'ringall'),
  ring_time: int(5, 300, 20),
  destination: OptionalDestinationSchema,
  description: text(500),
});
export type RingGroupInput = v.InferOutput<typeof RingGroupInputSchema>;

export const QUEUE_STRATEGIES = ['ringall', 'leastrecent', 'fewestcalls', 'rrmemory', 'linear', 'random'] as const;
export type QueueStrategy = (typeof QUEUE_STRATEGIES)[number];
export const QUEUE_STRATEGY_LABELS: Record<QueueStrategy, string> = {
  ringall: 'Đổ chuông tất cả',
  leastrecent: 'Người nghe lâu nhất chưa nhận cuộc gọi',
  fewestcalls: 'Người nhận ít cuộc gọi nhất',
  rrmemory: 'Xoay vòng có ghi nhớ',
  linear: 'Theo thứ tự',
  random: 'Ngẫu nhiên',
};
/** /queue */
export const QueueInputSchema = v.object({
  name,
  agents: extensionList,
  strategy: v.optional(v.picklist(QUEUE_STRATEGIES, INVALID), 'ringall'),
  agent_timeout: int(5, 120, 15),
  max_wait: int(10, 3600, 300),
  timeout_destination: OptionalDestinationSchema,
  join_greeting_id: optionalRef,
  moh_class: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, max(100))), ''),
  description: text(500),
});
export type QueueInput = v.InferOutput<typeof QueueInputSchema>;

export const IVR_DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export const IvrEntrySchema = v.object({ digit: v.picklist(IVR_DIGITS, PBX_MSG.digitFormat), destination: DestinationSchema });
/** /ivr-details */
export const IvrInputSchema = v.object({
  name,
  greeting_id: optionalRef,
  entries: v.pipe(
    v.optional(v.array(IvrEntrySchema, INVALID), []),
    v.maxLength(12, INVALID),
    v.check((es) => new Set(es.map((e) => e.digit)).size === es.length, PBX_MSG.duplicateDigit),
  ),
  timeout: int(1, 60, 5),
  invalid_retries: int(0, 10, 3),
  timeout_destination: OptionalDestinationSchema,
  invalid_destination: OptionalDestinationSchema,
  direct_dial: bool(false),
  description: text(500),
});
export type IvrInput = v.InferOutput<typeof IvrInputSchema>;

/** /notifications: an announcement played, then (optionally) a destination. */
export const NotificationInputSchema = v.object({
  name,
  greeting_id: requiredRef,
  destination: OptionalDestinationSchema,
  description: text(500),
});
export type NotificationInput = v.InferOutput<typeof NotificationInputSchema>;

/** Times of day "HH:MM" (24 h); a range whose end is before its start crosses midnight. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = v.pipe(v.string(PBX_MSG.timeFormat), v.trim(), v.regex(TIME_OF_DAY, PBX_MSG.timeFormat));
const nullableInt = (min: number, maxValue: number) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.literal(''), v.number(INVALID), v.pipe(v.string(INVALID), v.regex(/^\d+$/, INVALID), v.transform(Number))], INVALID)), null),
    v.transform((x): number | null => (x === '' || x === null || x === undefined ? null : x)),
    v.check((x) => x === null || (Number.isInteger(x) && x >= min && x <= maxValue), INVALID),
  );
/**
 * One range of a time group (FreePBX's "time" row). Every part is optional (null = any):
 * time of day start–end, day of week 1 Monday … 7 Sunday, day of month 1–31, month 1–12;
 * start > end wraps (e.g. Sat–Mon, Nov–Feb, 22:00–06:00).
 */
export const TimeRangeInputSchema = v.object({
  time_start: v.optional(v.union([v.literal(''), timeOfDay], PBX_MSG.timeFormat), ''),
  time_end: v.optional(v.union([v.literal(''), timeOfDay], PBX_MSG.timeFormat), ''),
  dow_start: nullableInt(1, 7),
  dow_end: nullableInt(1, 7),
  dom_start: nullableInt(1, 31),
  dom_end: nullableInt(1, 31),
  month_start: nullableInt(1, 12),
  month_end: nullableInt(1, 12),
});
export type TimeRangeInput = v.InferOutput<typeof TimeRangeInputSchema>;
/** /time-groups/add: a group and its first ranges. PUT of a group changes name/description only. */
export const TimeGroupInputSchema = v.object({
  name,
  description: text(500),
  ranges: v.optional(v.pipe(v.array(TimeRangeInputSchema, INVALID), v.maxLength(50, INVALID)), []),
});
export type TimeGroupInput = v.InferOutput<typeof TimeGroupInputSchema>;

export const DEFAULT_TIMEZONE = 'Asia/Ho_Chi_Minh';
/**
 * Manual override of a time condition (FreePBX): none; temporary until the next change of state of
 * the time group (override_until, computed by the API when set); permanent until changed.
 */
export const TIME_OVERRIDES = ['none', 'temp_matched', 'temp_unmatched', 'perm_matched', 'perm_unmatched'] as const;
export type TimeOverride = (typeof TIME_OVERRIDES)[number];
export const TIME_OVERRIDE_LABELS: Record<TimeOverride, string> = {
  none: 'Theo lịch',
  temp_matched: 'Tạm thời: trong giờ (đến lần chuyển trạng thái kế tiếp)',
  temp_unmatched: 'Tạm thời: ngoài giờ (đến lần chuyển trạng thái kế tiếp)',
  perm_matched: 'Luôn trong giờ',
  perm_unmatched: 'Luôn ngoài giờ',
};
const timezone = v.optional(
  v.pipe(
    v.string(PBX_MSG.timezone),
    v.trim(),
    v.check((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return tz.length > 0;
      } catch {
        return false;
      }
    }, PBX_MSG.timezone),
  ),
  DEFAULT_TIMEZONE,
);
/** /conditions */
export const TimeConditionInputSchema = v.object({
  name,
  time_group_id: requiredRef,
  matched_destination: DestinationSchema,
  unmatched_destination: DestinationSchema,
  override: v.optional(v.picklist(TIME_OVERRIDES, INVALID), 'none'),
  timezone,
  description: text(500),
});
export type TimeConditionInput = v.InferOutput<typeof TimeConditionInputSchema>;

/** /last-calls: a returning caller goes to the agent who last talked with them within `days`, else fallback. */
export const LastCallInputSchema = v.object({
  name,
  days: int(1, 365, 7),
  ring_time: int(5, 120, 20),
  fallback_destination: DestinationSchema,
  description: text(500),
});
export type LastCallInput = v.InferOutput<typeof LastCallInputSchema>;

/** Prefixes refused on outbound calls unless a matching rule allows them. */
export const INTERNATIONAL_PREFIXES = ['+', '00'] as const;
export const PREMIUM_PREFIXES = ['1900'] as const;
/** /outbound: matched in priority order (lower first); the first matching rule's trunk carries the call. */
export const OutboundRuleInputSchema = v.object({
  name,
  pattern: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(DIAL_PATTERN, PBX_MSG.dialPattern)), { abortPipeEarly: true }),
  /** Digits removed from the front of the dialled number, then `prepend` is added. */
  strip: int(0, 15, 0),
  prepend: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(/^\+?\d{1,15}$/, PBX_MSG.numberFormat))], PBX_MSG.numberFormat), ''),
  trunk: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'Tên trunk gồm chữ, số, _ . -')),
  caller_id: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(PBX_NUMBER_PATTERN, PBX_MSG.numberFormat))], PBX_MSG.numberFormat), ''),
  priority: int(0, 1000, 100),
  allow_international: bool(false),
  allow_premium: bool(false),
  description: text(500),
});
export type OutboundRuleInput = v.InferOutput<typeof OutboundRuleInputSchema>;

export const BLOCK_DIRECTIONS = ['in', 'out'] as const;
export type BlockDirection = (typeof BLOCK_DIRECTIONS)[number];
export const BLOCK_MATCHES = ['exact', 'prefix'] as const;
export type BlockMatch = (typeof BLOCK_MATCHES)[number];
export const BLOCK_MATCH_LABELS: Record<BlockMatch, string> = { exact: 'Đúng số', prefix: 'Theo đầu số' };
/** /list-of-blocked-incoming-numbers and /list-of-blocked-out-numbers (direction from the path). */
export const BlockedNumberInputSchema = v.object({
  number: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(/^\+?\d{1,15}$/, PBX_MSG.numberFormat)), { abortPipeEarly: true }),
  match: v.optional(v.picklist(BLOCK_MATCHES, INVALID), 'exact'),
  note: text(500),
});
export type BlockedNumberInput = v.InferOutput<typeof BlockedNumberInputSchema>;

/** /greeting and /music-on-holds: audio uploads (multipart: name, file; music on hold adds moh_class). */
export const AUDIO_KINDS = ['greeting', 'moh'] as const;
export type AudioKind = (typeof AUDIO_KINDS)[number];
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
export const AUDIO_MIME = { wav: 'audio/wav', mp3: 'audio/mpeg' } as const;
export const AudioMetaInputSchema = v.object({
  name,
  moh_class: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, max(100))), ''),
});
export type AudioMetaInput = v.InferOutput<typeof AudioMetaInputSchema>;

// ---------------------------------------------------------------------------------------------
// Rows as the API answers them
// ---------------------------------------------------------------------------------------------

interface Row {
  id: number;
  created_at: string;
  updated_at: string;
}
export type PbxNumber = Row & PbxNumberInput;
export type Inbound = Row & InboundInput & { destination_name: string };
export type RingGroup = Row & RingGroupInput;
export type Queue = Row & QueueInput;
export type Ivr = Row & IvrInput;
export type Notification = Row & NotificationInput;
export type TimeRange = TimeRangeInput & { id: number };
export type TimeGroup = Row & Omit<TimeGroupInput, 'ranges'> & { ranges: TimeRange[] };
export type TimeCondition = Row & TimeConditionInput & { override_until: string | null; override_set_at: string | null };
export type LastCall = Row & LastCallInput;
export type OutboundRule = Row & OutboundRuleInput;
export type BlockedNumber = Row & BlockedNumberInput & { direction: BlockDirection };
export interface AudioFile extends Row {
  kind: AudioKind;
  name: string;
  moh_class: string;
  file_name: string;
  mime: string;
  size_bytes: number;
  duration_seconds: number;
}

/** Everything the routing engine needs about one tenant (a snapshot read in one transaction). */
export interface PbxConfig {
  tenantId: number;
  maDn: string;
  timezone: string;
  /**
   * voicemail: the extension has a mailbox (a direct call that finds it busy, offline or unanswered
   * goes there instead of 486/480); ring_time: seconds a direct call rings it (engine default 20).
   */
  extensions: { extension: string; display_name: string; user_id: number | null; voicemail?: boolean; ring_time?: number }[];
  numbers: PbxNumber[];
  inbounds: Inbound[];
  ringGroups: RingGroup[];
  queues: Queue[];
  ivrs: Ivr[];
  notifications: Notification[];
  timeGroups: TimeGroup[];
  timeConditions: TimeCondition[];
  lastCalls: LastCall[];
  outboundRules: OutboundRule[];
  blocked: BlockedNumber[];
  audio: AudioFile[];
}

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
