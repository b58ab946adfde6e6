import * as v from 'valibot';
import { MSG } from '../messages';
import { optionalRef, requiredRef } from '../ref';
import { OptionalRecordingModeSchema } from '../recording';
import { EXTENSION_PATTERN } from '../subscribers';
import { DestinationSchema, OptionalDestinationSchema, PBX_NUMBER_PATTERN } from './destinations';
import { INVALID, max, PBX_MSG } from './messages';
import { CALLER_ID_MODES, TELECOM_MSG } from '../telecom';
import { HOLIDAY_MODES } from './holidays';

/**
 * PBX configuration (mf-pbx screens, the /pbx partner API, the routing engine): one schema per
 * object, used by the browser forms and the API alike. Every object belongs to one tenant.
 */

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
  /**
   * Post-call CSAT (issue 34, ADR 0056): a caller this route sends to an extension (or a number outside)
   * is asked to rate the call (a key 1–5) once the person who answered hangs up. A queue keeps its own setting.
   */
  csat: bool(false),
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
const queueFields = {
  name,
  agents: extensionList,
  strategy: v.optional(v.picklist(QUEUE_STRATEGIES, INVALID), 'ringall'),
  agent_timeout: int(5, 120, 15),
  max_wait: int(10, 3600, 300),
  timeout_destination: OptionalDestinationSchema,
  join_greeting_id: optionalRef,
  moh_class: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, max(100))), ''),
  description: text(500),
  /** Live monitoring (issue 14): service level = answered within sla_seconds; the wall's tile turns amber/red at these longest waits. */
  sla_seconds: int(5, 600, 20),
  amber_wait_seconds: int(5, 3600, 30),
  red_wait_seconds: int(5, 3600, 60),
  /** Calls answered from this queue are recorded under this mode (issue 16); null: the tenant's. */
  recording_mode: OptionalRecordingModeSchema,
  /** Post-call CSAT (issue 34): once the agent hangs up, the caller is asked to rate the call (a key 1–5). */
  csat: v.optional(v.boolean(INVALID), false),
};
/** /queue; the tile turns amber before it turns red (the error shows under the amber threshold). */
export const QueueInputSchema = v.pipe(
  v.object(queueFields),
  v.forward(
    v.partialCheck([['amber_wait_seconds'], ['red_wait_seconds']], (q) => q.amber_wait_seconds < q.red_wait_seconds, PBX_MSG.amberBelowRed),
    ['amber_wait_seconds'],
  ),
);
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
/** The fields of a range, as its table's columns (pbx_time_ranges). */
export const TIME_RANGE_FIELDS = ['time_start', 'time_end', 'dow_start', 'dow_end', 'dom_start', 'dom_end', 'month_start', 'month_end'] as const satisfies readonly (keyof TimeRangeInput)[];
/**
 * /time-groups/add: a group, how it treats Vietnam's public holidays (holidays.ts) and its first
 * ranges (at least one, but for a group that holds on holidays: "include" with no range is a
 * holidays-only group). PUT of a group changes name, description and holiday_mode (absent: kept).
 */
export const TimeGroupInputSchema = v.object({
  name,
  description: text(500),
  holiday_mode: v.optional(v.picklist(HOLIDAY_MODES, INVALID), 'none'),
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
/**
 * /outbound: matched in priority order (lower first); the first matching rule carries the call
 * through its switchboards (telecom_switchboards ids, tried in order with failover, issue 15).
 * The caller id is one of the tenant's hotlines (checked by the API): `fixed` always presents
 * caller_id; `carrier` presents the hotline on the callee's carrier when there is one, else
 * caller_id. The free-text `trunk` of older rules stays in the table (legacy, '' for new rules).
 */
export const OutboundRuleInputSchema = v.object({
  name,
  pattern: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(DIAL_PATTERN, PBX_MSG.dialPattern)), { abortPipeEarly: true }),
  /** Digits removed from the front of the dialled number, then `prepend` is added. */
  strip: int(0, 15, 0),
  prepend: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(/^\+?\d{1,15}$/, PBX_MSG.numberFormat))], PBX_MSG.numberFormat), ''),
  // Missing = empty, so the answer names the field with its message rather than a missing key.
  switchboard_ids: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(TELECOM_MSG.switchboardsRequired), v.integer(TELECOM_MSG.switchboardsRequired), v.minValue(1, TELECOM_MSG.switchboardsRequired)), TELECOM_MSG.switchboardsRequired),
      v.minLength(1, TELECOM_MSG.switchboardsRequired),
      v.maxLength(10, max(10)),
      v.check((ids) => new Set(ids).size === ids.length, INVALID),
    ),
    [],
  ),
  caller_id_mode: v.optional(v.picklist(CALLER_ID_MODES, INVALID), 'fixed'),
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
/** `switchboard_id`: the switchboard of a hotline (issue 15), null for a plain DID. */
export type PbxNumber = Row & PbxNumberInput & { switchboard_id?: number | null };
export type Inbound = Row & InboundInput & { destination_name: string };
export type RingGroup = Row & RingGroupInput;
export type Queue = Row & QueueInput;
export type Ivr = Row & IvrInput;
export type Notification = Row & NotificationInput;
export type TimeRange = TimeRangeInput & { id: number };
export type TimeGroup = Row & Omit<TimeGroupInput, 'ranges'> & { ranges: TimeRange[] };
export type TimeCondition = Row & TimeConditionInput & { override_until: string | null; override_set_at: string | null };
export type LastCall = Row & LastCallInput;
/** `trunk`: the free-text trunk of rules made before switchboards ('' for the others). */
export type OutboundRule = Row & OutboundRuleInput & { trunk?: string };
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
