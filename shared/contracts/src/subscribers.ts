import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE, type Provider } from './constants';
import { omittableRef, optionalRef } from './ref';
import { RecordingModeOrInheritSchema, type RecordingMode } from './recording';

/** Subscribers (máy nhánh): SIP extensions of a tenant, and the call log the softphone writes. */

/** Each tenant is its own SIP domain: the domain part of sip:101@demo.tongdai.local names the tenant. */
export const SIP_DOMAIN_SUFFIX = '.tongdai.local';
export const sipDomain = (maDn: string): string => `${maDn}${SIP_DOMAIN_SUFFIX}`;
/** The tenant code of a SIP domain, or null when the domain is not one of ours. */
export function tenantOfSipDomain(domain: string): string | null {
  if (!domain.endsWith(SIP_DOMAIN_SUFFIX)) return null;
  const maDn = domain.slice(0, -SIP_DOMAIN_SUFFIX.length);
  return maDn && !maDn.includes('.') ? maDn : null;
}

/** Extension numbers: 2 to 6 digits, unique in the tenant. */
export const EXTENSION_PATTERN = /^\d{2,6}$/;
/** Length of the generated SIP password (shown once). */
export const SIP_PASSWORD_LENGTH = 16;

export const SUBSCRIBER_MSG = {
  extensionFormat: 'Số máy nhánh gồm 2–6 chữ số',
  extensionTaken: 'Số máy nhánh đã tồn tại',
  userTaken: 'Tài khoản này đã được gán một máy nhánh khác',
  userNotFound: 'Tài khoản không tồn tại',
  ringTime: 'Thời gian đổ chuông từ 5 đến 300 giây',
  voicemailPin: 'Mã PIN hộp thư gồm 4–8 chữ số',
  voicemailMax: 'Thời lượng tin nhắn từ 10 đến 600 giây',
  greetingNotFound: 'Lời chào không tồn tại',
} as const;

/** Seconds a direct call rings an extension when it names none (the engine's default). */
export const DEFAULT_RING_TIME = 20;
/** A voicemail message's longest recording when the mailbox names none. */
export const DEFAULT_VOICEMAIL_MAX_SECONDS = 120;

/** Whole seconds in [min, max] from a form ("" = none: null) or JSON (a number or null). */
const secondsOrNone = (min: number, maxValue: number, message: string) =>
  v.pipe(
    v.union([v.null(), v.number(message), v.pipe(v.string(message), v.trim(), v.regex(/^\d{0,4}$/, message), v.transform((x) => (x === '' ? null : Number(x))))], message),
    v.check((n) => n === null || (Number.isInteger(n) && n >= min && n <= maxValue), message),
  );

const max = (n: number) => `Tối đa ${n} ký tự`;

/** POST /subscribers and PUT /subscribers/:id (the password is generated, never typed). */
export const SubscriberInputSchema = v.object({
  extension: v.config(
    v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(EXTENSION_PATTERN, SUBSCRIBER_MSG.extensionFormat)),
    { abortPipeEarly: true },
  ),
  display_name: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(255, max(255))),
  user_id: optionalRef,
  /**
   * Ring time and mailbox (issue 16). Left out of a request: kept as they are (a client that knows
   * only the extension and name changes nothing else); null ring time: the default 20 s.
   */
  ring_time: v.optional(secondsOrNone(5, 300, SUBSCRIBER_MSG.ringTime)),
  voicemail_enabled: v.optional(v.boolean('Giá trị không hợp lệ')),
  voicemail_pin: v.optional(
    v.pipe(
      v.nullable(v.string(SUBSCRIBER_MSG.voicemailPin)),
      v.transform((x) => x?.trim() || null),
      v.check((x) => x === null || /^\d{4,8}$/.test(x), SUBSCRIBER_MSG.voicemailPin),
    ),
  ),
  voicemail_greeting_id: omittableRef,
  voicemail_max_seconds: v.optional(
    v.pipe(
      secondsOrNone(10, 600, SUBSCRIBER_MSG.voicemailMax),
      v.transform((n) => n ?? DEFAULT_VOICEMAIL_MAX_SECONDS),
    ),
  ),
  /** Calls this extension makes or takes are recorded under this mode (null: the tenant's); left out: kept. */
  recording_mode: v.optional(RecordingModeOrInheritSchema),
});
export type SubscriberInput = v.InferOutput<typeof SubscriberInputSchema>;

export const BLANK_SUBSCRIBER = { extension: '', display_name: '', user_id: '' as string | number | null };

export interface Subscriber {
  id: number;
  extension: string;
  display_name: string;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
  /** Seconds a direct call rings it; null: the default (DEFAULT_RING_TIME). */
  ring_time: number | null;
  voicemail_enabled: boolean;
  voicemail_pin: string | null;
  voicemail_greeting_id: number | null;
  voicemail_max_seconds: number;
  /** Its own recording mode (issue 16); null: the tenant's. */
  recording_mode: RecordingMode | null;
  /** In the list: a phone is registered with this extension now (the registration store, ADR 0038). */
  registered?: boolean;
}
/** The answer to POST /subscribers: the only time the password is shown with the subscriber. */
export type SubscriberCreated = Subscriber & { password: string };
export interface SubscriberPassword {
  password: string;
}

const intFromQuery = (min: number, maxValue: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(min), v.maxValue(maxValue)), fallback);

export const SubscriberListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
});
export type SubscriberListQuery = v.InferOutput<typeof SubscriberListQuerySchema>;

/**
 * GET /voice-subscribers (the telecom side's /voices/subscribers): a subscriber with its SIP
 * domain and whether a phone is registered on it now (Kamailio's reports, the live state the
 * /monitor wall reads). `registration` filters: '' all, 'registered', 'offline'.
 */
export interface VoiceSubscriber extends Subscriber {
  /** <ma_dn>.tongdai.local: the domain a phone registers the extension in. */
  sip_domain: string;
  registered: boolean;
  /** The registering phone's User-Agent when Kamailio reported one; null when not known. */
  user_agent: string | null;
}
export const VOICE_REGISTRATION = { registered: 'Đang đăng ký', offline: 'Ngoại tuyến' } as const;
export type VoiceRegistration = keyof typeof VOICE_REGISTRATION;
export const VoiceSubscriberQuerySchema = v.object({
  ...SubscriberListQuerySchema.entries,
  registration: v.optional(v.union([v.literal(''), v.picklist(Object.keys(VOICE_REGISTRATION) as VoiceRegistration[])], 'Giá trị không hợp lệ'), ''),
});
export type VoiceSubscriberQuery = v.InferOutput<typeof VoiceSubscriberQuerySchema>;

/** GET /sip-account: what the softphone registers with (SPEC §3 "SIP account"). */
export interface SipAccount {
  provider: Provider;
  username_telecom: string;
  domain_telecom: string;
  password_telecom: string;
  ws_url: string;
  display_name: string;
  /** Provider 2 (SPEC §3): the extension, its SIP domain and password, and the tenant's telecom key. */
  extentions_number?: string;
  tenant_domain?: string;
  extension_password?: string;
  shop_key?: string;
  /** Provider 3: the SDK access token our back end signs (Stringee's JWT), renewed by asking again. */
  access_token?: string;
}

/**
 * The Stringee user id of an extension. One Stringee project serves every tenant of a deployment,
 * so the id carries the tenant (ma_dn has no "_"): demo's 101 and abc's 101 never meet.
 */
export const stringeeUserId = (maDn: string, extension: string): string => `${maDn}_${extension}`;

/** One line of the tenant's extension directory (transfer targets): no password, no account id. */
export interface DirectoryEntry {
  extension: string;
  display_name: string;
}

/**
 * Click-to-call (issue 15): GET /customers/:id/dial and GET /reports/call-history/:id/dial answer
 * the number the softphone dials for a customer or a call record. Only the softphone asks (a
 * screen names the customer or the call, never holds a number the tenant masks).
 */
export interface DialTarget {
  /** What the phone dials: national form for a Vietnamese number, an extension as it is. */
  number: string;
}

export const CALL_DIRECTIONS = ['incoming', 'outgoing'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];
/** Numbers as dialled: digits with an optional leading +, and * or # for service codes. */
export const DIALLED_NUMBER_PATTERN = /^\+?[0-9*#]{1,32}$/;

/** POST /create-histories-call (SPEC: body phone). */
export const CallHistoryInputSchema = v.object({
  phone: v.config(v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(DIALLED_NUMBER_PATTERN, MSG.phoneFormat)), {
    abortPipeEarly: true,
  }),
  direction: v.optional(v.picklist(CALL_DIRECTIONS, 'Giá trị không hợp lệ'), 'outgoing'),
});
export type CallHistoryInput = v.InferOutput<typeof CallHistoryInputSchema>;

export interface CallHistory {
  id: number;
  phone: string;
  direction: CallDirection;
  user_id: number;
  created_at: string;
}

