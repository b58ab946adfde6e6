import * as v from 'valibot';
import { MSG } from './messages';
import { carrierOf, internationalForm, nationalForm, phoneKind, significantNumber, storedForm, type Carrier } from './phone';
import { DestinationSchema, type Destination } from './pbx/destinations';
import { INVALID, max } from './pbx/messages';
import { PAGE_SIZE } from './constants';
import { reportParams, reportQuery, vnDay, vnDayStart } from './reports';
import { SWITCHBOARD_CARRIERS, type SwitchboardCarrier } from './switchboard-carriers';

/**
 * Telecom (issue 15, SPEC §2 /etelecom/*, /voices/subscribers): a tenant's carrier connections
 * (switchboards = SIP trunks) and the hotlines it owns through them. One schema for the screens
 * (mf-pbx), the API and the routing engine. A hotline is a number of the tenant (/numbers,
 * inbound routes) bound to a switchboard.
 */

// ---------------------------------------------------------------------------------------------
// Switchboards (SIP trunks to a carrier)
// ---------------------------------------------------------------------------------------------

export { SWITCHBOARD_CARRIERS, type SwitchboardCarrier } from './switchboard-carriers';
export const SWITCHBOARD_CARRIER_NAMES: Record<SwitchboardCarrier, string> = {
  viettel: 'Viettel', vnpt: 'VNPT (Vinaphone)', mobifone: 'Mobifone', fpt: 'FPT Telecom', cmc: 'CMC Telecom', other: 'Khác',
};
/** The mobile network (phone.ts, by number prefix) → the switchboard carrier that owns it. */
export const SWITCHBOARD_CARRIER_OF_NETWORK: Partial<Record<Carrier, SwitchboardCarrier>> = { viettel: 'viettel', vinaphone: 'vnpt', mobifone: 'mobifone' };

export const SWITCHBOARD_TRANSPORTS = ['udp', 'tcp'] as const;
export type SwitchboardTransport = (typeof SWITCHBOARD_TRANSPORTS)[number];
/**
 * How a switchboard writes the caller ID (the hotline in From and P-Asserted-Identity) to its
 * carrier: carriers differ — national 0283…, 84283… or +84283…. 1800/1900 numbers have one form.
 */
export const CALLER_ID_FORMATS = ['national', 'international', 'e164'] as const;
export type CallerIdFormat = (typeof CALLER_ID_FORMATS)[number];
export const CALLER_ID_FORMAT_LABELS: Record<CallerIdFormat, string> = {
  national: 'Trong nước (0283…)',
  international: 'Quốc tế, không dấu + (84283…)',
  e164: 'Quốc tế E.164 (+84283…)',
};
/** A hotline as `format` writes it; a number that is not Vietnamese is sent as it is (cleaned). */
export function callerIdForm(number: string, format: CallerIdFormat): string {
  if (format === 'international') return storedForm(number);
  return format === 'e164' ? internationalForm(number) : nationalForm(number);
}
/** Codecs a carrier trunk may offer (G.711 first: every Vietnamese carrier takes it). */
export const SWITCHBOARD_CODECS = ['PCMA', 'PCMU', 'G729', 'G722'] as const;
export type SwitchboardCodec = (typeof SWITCHBOARD_CODECS)[number];

/**
 * Live status of a switchboard. `registered` / `failed` for a trunk that registers (failed carries
 * the carrier's reason, e.g. "403 Forbidden", "timeout"); `ip` for an IP-authenticated trunk
 * (nothing to register); `pending` before the first answer; `disabled` when turned off; `blocked`
 * when its host name now answers with an address the PBX refuses (issue 32: nothing is sent to it).
 */
export const SWITCHBOARD_STATUSES = ['pending', 'registered', 'failed', 'ip', 'disabled', 'blocked'] as const;
export type SwitchboardStatus = (typeof SWITCHBOARD_STATUSES)[number];
export const SWITCHBOARD_STATUS_LABELS: Record<SwitchboardStatus, string> = {
  pending: 'Đang đăng ký',
  registered: 'Đã đăng ký',
  failed: 'Đăng ký thất bại',
  ip: 'Xác thực theo IP',
  disabled: 'Đã tắt',
  blocked: 'Bị chặn',
};

/**
 * Why a switchboard's host is refused (issue 32, ADR 0043): the API's 422 names it (`rule` of the
 * host's field error), the audit line of a blocked switchboard too. `service-port`: a port of the
 * PBX's own services (API, Kamailio, rtpengine, media workers, Redis, PostgreSQL), on any address.
 */
export const SWITCHBOARD_HOST_RULES = ['service-port', 'unspecified', 'link-local', 'multicast', 'broadcast', 'reserved', 'loopback', 'private', 'own-address'] as const;
export type SwitchboardHostRule = (typeof SWITCHBOARD_HOST_RULES)[number];

export const TELECOM_MSG = {
  host: 'Địa chỉ máy chủ không hợp lệ (tên miền, địa chỉ IPv4 hoặc IPv6)',
  /** A host (or a port) the PBX refuses to send to (issue 32): its own internals. */
  internalHost: 'Địa chỉ nội bộ của hệ thống không được dùng làm tổng đài',
  port: 'Cổng từ 1 đến 65535',
  codecs: 'Chọn ít nhất một codec',
  authUser: 'Tài khoản xác thực gồm chữ, số và . _ - @ +',
  passwordRequired: 'Trunk có đăng ký cần mật khẩu xác thực',
  hotlineNumber: 'Số hotline không hợp lệ: 1800/1900, số cố định hoặc số di động Việt Nam',
  numberTaken: 'Số này đã thuộc về một doanh nghiệp khác',
  numberExists: 'Số này đã có trong tổng đài của bạn',
  switchboardRequired: 'Chọn tổng đài (trunk) của hotline',
  switchboardsRequired: 'Chọn ít nhất một tổng đài (trunk)',
  switchboardInUse: 'Tổng đài đang được dùng bởi hotline hoặc tuyến gọi ra',
  hotlineInUse: 'Hotline đang là số hiển thị của một tuyến gọi ra',
  hotlineInCampaign: 'Hotline đang là số gọi ra của một chiến dịch, hãy đổi hotline của chiến dịch trước',
  unknownHotline: 'Hotline không tồn tại',
  callerIdNotHotline: 'Số hiển thị phải là một hotline của doanh nghiệp',
  identityNameRequired: 'Nhập tên định danh đã đăng ký cho hotline',
  identityDateRequired: 'Nhập ngày đăng ký tên định danh',
  identityDateBad: 'Ngày đăng ký không hợp lệ hoặc ở tương lai',
  dialRate: 'Nhập số cuộc gọi mỗi phút là số nguyên từ 1 đến 600, hoặc để trống nếu không giới hạn',
  channelLimit: 'Tổng đài đã dùng hết số kênh đồng thời',
  tenantChannelLimit: 'Doanh nghiệp đã dùng hết số kênh gọi đồng thời',
  unknownCarrier: 'Cuộc gọi đến từ địa chỉ không phải tổng đài đã cấu hình',
} as const;

const HOST = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$|^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
/** An IPv6 literal's shape (brackets and a zone id allowed); the API parses and judges it. */
const IPV6 = /^\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(?:%[\w.-]{1,32})?\]?$/;
const AUTH_USER = /^[a-zA-Z0-9._@+-]{1,64}$/;
const intIn = (min: number, maxValue: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.number(INVALID), v.pipe(v.string(INVALID), v.trim(), v.regex(/^\d+$/, 'Phải là số nguyên'), v.transform(Number))], INVALID),
      v.integer('Phải là số nguyên'),
      v.minValue(min, `Tối thiểu ${min}`),
      v.maxValue(maxValue, `Tối đa ${maxValue}`),
    ),
    fallback,
  );
const required = (n: number) => v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(n, max(n)));

/**
 * POST/PUT a switchboard. `auth_password` is write-only: the API never sends it back (a row says
 * `has_password`); on edit an empty value keeps the stored one. A trunk that registers needs a user
 * and a password; an IP-authenticated one (register false) may have neither.
 */
export const SwitchboardInputSchema = v.pipe(
  v.object({
    name: required(100),
    carrier: v.optional(v.picklist(SWITCHBOARD_CARRIERS, INVALID), 'other'),
    host: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.check((h) => HOST.test(h) || (h.length <= 64 && IPV6.test(h)), TELECOM_MSG.host)), { abortPipeEarly: true }),
    port: intIn(1, 65535, 5060),
    transport: v.optional(v.picklist(SWITCHBOARD_TRANSPORTS, INVALID), 'udp'),
    /** How the caller ID is written to this carrier. */
    caller_id_format: v.optional(v.picklist(CALLER_ID_FORMATS, INVALID), 'national'),
    auth_user: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(AUTH_USER, TELECOM_MSG.authUser))], TELECOM_MSG.authUser), ''),
    auth_password: v.optional(v.pipe(v.string(INVALID), v.maxLength(128, max(128))), ''),
    /** Register to the carrier (uac); false = the carrier knows us by IP. */
    register: v.optional(v.boolean(INVALID), true),
    /** Seconds between registrations (REGISTER Expires). */
    register_interval: intIn(60, 3600, 300),
    /** Concurrent calls the carrier allows on this trunk (both directions). */
    max_channels: intIn(1, 2000, 30),
    codecs: v.optional(
      v.pipe(v.array(v.picklist(SWITCHBOARD_CODECS, INVALID), TELECOM_MSG.codecs), v.minLength(1, TELECOM_MSG.codecs), v.check((xs) => new Set(xs).size === xs.length, INVALID)),
      ['PCMA', 'PCMU'],
    ),
    enabled: v.optional(v.boolean(INVALID), true),
    description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, max(500))), ''),
  }),
  v.forward(
    v.check((s) => !s.register || s.auth_user !== '', MSG.required),
    ['auth_user'],
  ),
);
export type SwitchboardInput = v.InferOutput<typeof SwitchboardInputSchema>;

/** A switchboard as the API answers it: never the password. */
export interface Switchboard extends Omit<SwitchboardInput, 'auth_password'> {
  id: number;
  has_password: boolean;
  status: SwitchboardStatus;
  /** The carrier's answer or the failure, in Vietnamese where we know it ('' when fine). */
  status_reason: string;
  status_at: string | null;
  /** Calls on this trunk now (live). */
  channels_in_use: number;
  hotlines: number;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Hotlines (numbers owned through a switchboard)
// ---------------------------------------------------------------------------------------------

export const HOTLINE_KINDS = ['tollfree', 'premium', 'landline', 'mobile'] as const;
export type HotlineKind = (typeof HOTLINE_KINDS)[number];
export const HOTLINE_KIND_LABELS: Record<HotlineKind, string> = {
  tollfree: '1800 (miễn phí người gọi)', premium: '1900 (người gọi trả phí)', landline: 'Cố định', mobile: 'Di động',
};

/** The kind of a Vietnamese hotline number, or null when it cannot be one. */
export function hotlineKind(n: string): HotlineKind | null {
  const nsn = significantNumber(n);
  if (nsn === null) return null;
  if (nsn.startsWith('1800')) return 'tollfree';
  if (nsn.startsWith('1900')) return 'premium';
  const kind = phoneKind(nsn);
  return kind === 'mobile' ? 'mobile' : kind === 'landline' ? 'landline' : null;
}

/** The carrier a hotline's prefix says (mobile numbers only; others are the switchboard's). */
export function hotlineCarrier(n: string): SwitchboardCarrier | null {
  return SWITCHBOARD_CARRIER_OF_NETWORK[carrierOf(n)] ?? null;
}

/** POST /etelecom hotline: the number, its switchboard, where its calls go (an inbound route is made for it). */
export const HotlineInputSchema = v.object({
  number: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.check((n) => hotlineKind(n) !== null, TELECOM_MSG.hotlineNumber)), { abortPipeEarly: true }),
  switchboard_id: v.pipe(
    v.union([v.number(TELECOM_MSG.switchboardRequired), v.pipe(v.string(TELECOM_MSG.switchboardRequired), v.regex(/^\d+$/, TELECOM_MSG.switchboardRequired), v.transform(Number))], TELECOM_MSG.switchboardRequired),
    v.integer(TELECOM_MSG.switchboardRequired),
    v.minValue(1, TELECOM_MSG.switchboardRequired),
  ),
  destination: DestinationSchema,
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, max(500))), ''),
});
export type HotlineInput = v.InferOutput<typeof HotlineInputSchema>;

export interface Hotline {
  id: number;
  /** Stored form (phone.ts storedForm). */
  number: string;
  kind: HotlineKind;
  /** From the prefix for mobiles, else the switchboard's carrier. */
  carrier: SwitchboardCarrier;
  switchboard_id: number;
  switchboard_name: string;
  switchboard_status: SwitchboardStatus;
  /** Where its calls go: the destination of its inbound route without a caller pattern (null if that route was removed). */
  destination: Destination | null;
  active: boolean;
  description: string;
  /** Calls through it today (Vietnam day), in and out. */
  calls_today: number;
  /** Calls on its switchboard now (channels belong to the switchboard). */
  channels_in_use: number;
  /** Registered as a "tên định danh" for advertising calls (Decree 91): the only caller IDs of an advertising campaign. */
  advertising_identity: boolean;
  /** The registered name ("tên định danh") and the day it was registered (YYYY-MM-DD); '' / null when not registered. */
  advertising_name: string;
  advertising_registered_on: string | null;
  /**
   * Calls the campaign dialer may start through it in any 60 s (progressive and predictive campaigns
   * calling from it, together), so that its carrier does not block the number; null: no cap.
   */
  max_calls_per_minute: number | null;
  created_at: string;
}

// ---------------------------------------------------------------------------------------------
// Outbound rules choose switchboards; caller id is one of the tenant's hotlines
// ---------------------------------------------------------------------------------------------

/**
 * `fixed`: always the rule's caller_id hotline. `carrier`: the tenant's hotline on the callee's
 * carrier when there is one (Viettel to Viettel…), else the rule's caller_id.
 */
export const CALLER_ID_MODES = ['fixed', 'carrier'] as const;
export type CallerIdMode = (typeof CALLER_ID_MODES)[number];
export const CALLER_ID_MODE_LABELS: Record<CallerIdMode, string> = {
  fixed: 'Cố định một hotline',
  carrier: 'Hotline cùng nhà mạng với số được gọi (nếu có)',
};

/** The most a hotline's dialer cap may be set to (calls started per minute). */
export const MAX_CALLS_PER_MINUTE = 600;

/** Channels per tenant across all its switchboards unless the tenant's plan says otherwise. */
export const DEFAULT_TENANT_MAX_CHANNELS = 100;

// ---------------------------------------------------------------------------------------------
// The API (paths relative to a surface's base, like MONITOR_API)
// ---------------------------------------------------------------------------------------------

/**
 * Tenant surface (/t/{ma_dn}/…, a user's session; telecom.view to read, telecom.create/edit/delete
 * to write):
 * - `switchboards`: GET ?page&per_page&search → Paged<Switchboard>; POST SwitchboardInput → 201 One<Switchboard>.
 * - `switchboard(id)`: GET → One<Switchboard>; PUT SwitchboardInput (empty auth_password keeps the
 *   stored one) → One<Switchboard>; DELETE → 204, or 409 CONFLICT with TELECOM_MSG.switchboardInUse.
 * - `hotlines`: GET ?page&per_page&search&switchboard_id → Paged<Hotline>; POST HotlineInput → 201
 *   One<Hotline> (the number in /numbers and its inbound route, one transaction). 409 CONFLICT with
 *   TELECOM_MSG.numberTaken (details field `number`) when another tenant owns the number, with
 *   TELECOM_MSG.numberExists when it is already one of the tenant's hotlines. A number already in
 *   /numbers that is not a hotline yet becomes one: bound to the switchboard, its default inbound
 *   route (no caller pattern) set to the destination.
 * - `hotline(id)`: GET → One<Hotline>; PUT HotlineUpdate → One<Hotline>; DELETE → 204 (the number and its routes go).
 * The screen /etelecom/call-history reads the reports' call history with its hotline filter (one
 * way to list calls); partners read `partner.callLogs`.
 *
 * Telecom surface (/telecom/…, bearer = the shop key of GET /telecom/etelecom/GetShopKey): read-only,
 * for partner integrations: `partner.switchboards` → { data: Switchboard[] }, `partner.hotlines` →
 * { data: Hotline[] }, `partner.callLogs` ?TelecomCallLogQuery → Paged<CallReportRow>.
 */
export const TELECOM_API = {
  switchboards: 'etelecom/switchboards',
  switchboard: (id: number | string) => `etelecom/switchboards/${id}`,
  hotlines: 'etelecom/hotlines',
  hotline: (id: number | string) => `etelecom/hotlines/${id}`,
  partner: {
    switchboards: 'etelecom/switchboards',
    hotlines: 'etelecom/hotlines',
    callLogs: 'etelecom/call-logs',
  },
} as const;

const hotlineUpdateFields = {
  switchboard_id: HotlineInputSchema.entries.switchboard_id,
  destination: DestinationSchema,
  description: HotlineInputSchema.entries.description,
  active: v.optional(v.boolean(INVALID), true),
  /**
   * Decree 91's "tên định danh": absent keeps what is stored; true needs the registered name and the
   * day it was registered (not in the future); false clears both.
   */
  advertising_identity: v.optional(v.boolean(INVALID)),
  advertising_name: v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(100, max(100))), ''),
  advertising_registered_on: v.optional(v.nullable(v.pipe(v.string(INVALID), v.trim())), null),
  /** The dialer's cap (Hotline.max_calls_per_minute): a whole number 1–600; '' or null, no cap; absent keeps what is stored. */
  max_calls_per_minute: v.optional(
    v.pipe(
      v.union([v.null(), v.number(), v.string()], TELECOM_MSG.dialRate),
      v.transform((x): number | null => (x === null ? null : typeof x === 'number' ? x : x.trim() === '' ? null : /^\d{1,4}$/.test(x.trim()) ? Number(x.trim()) : NaN)),
      v.check((x) => x === null || (Number.isInteger(x) && x >= 1 && x <= MAX_CALLS_PER_MINUTE), TELECOM_MSG.dialRate),
    ),
  ),
};
type HotlineUpdateFields = v.InferOutput<v.ObjectSchema<typeof hotlineUpdateFields, undefined>>;
const identityCheck = <K extends 'advertising_name' | 'advertising_registered_on'>(key: K, ok: (x: HotlineUpdateFields) => boolean, message: (x: HotlineUpdateFields) => string) =>
  v.rawCheck<HotlineUpdateFields>(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.advertising_identity === true && !ok(dataset.value)) {
      addIssue({ message: message(dataset.value), path: [{ type: 'object', origin: 'value', input: dataset.value, key, value: dataset.value[key] }] });
    }
  });

/** PUT a hotline: the number itself is not renamed (delete and add again); the rest may change. */
export const HotlineUpdateSchema = v.pipe(
  v.object(hotlineUpdateFields),
  identityCheck('advertising_name', (x) => x.advertising_name !== '', () => TELECOM_MSG.identityNameRequired),
  identityCheck(
    'advertising_registered_on',
    (x) => !!x.advertising_registered_on && vnDayStart(x.advertising_registered_on) !== null && x.advertising_registered_on <= vnDay(new Date()),
    (x) => (!x.advertising_registered_on ? TELECOM_MSG.identityDateRequired : TELECOM_MSG.identityDateBad),
  ),
  v.transform((x) => (x.advertising_identity === false ? { ...x, advertising_name: '', advertising_registered_on: null } : x)),
);
export type HotlineUpdate = v.InferOutput<typeof HotlineUpdateSchema>;

const queryInt = (min: number, maxValue: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(INVALID), v.minValue(min, INVALID), v.maxValue(maxValue, INVALID)), fallback);
const queryId = v.optional(
  v.union([v.literal(''), v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(INVALID), v.minValue(1, INVALID))], INVALID),
  '',
);

/** GET switchboards / hotlines: pages of PAGE_SIZE, search by name / number; hotlines by switchboard. */
export const TelecomListQuerySchema = v.object({
  page: queryInt(1, 1_000_000, 1),
  per_page: queryInt(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  switchboard_id: queryId,
});
export type TelecomListQuery = v.InferOutput<typeof TelecomListQuerySchema>;

/**
 * GET call history / call logs of the hotlines: `hotline_id` ('' = every hotline of the tenant),
 * `from`/`to` Vietnam days (YYYY-MM-DD, both included; default today; the reports' range rules), pages.
 */
export const TelecomCallLogQuerySchema = reportQuery({
  hotline_id: reportParams.id,
  from: reportParams.day,
  to: reportParams.day,
  page: reportParams.count(100_000, 1),
  per_page: reportParams.count(100, PAGE_SIZE),
});
export type TelecomCallLogQuery = v.InferOutput<typeof TelecomCallLogQuerySchema>;
