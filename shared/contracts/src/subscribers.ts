import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE, type Provider } from './constants';
import { optionalRef } from './ref';

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
} as const;

const max = (n: number) => `Tối đa ${n} ký tự`;

/** POST /subscribers and PUT /subscribers/:id (the password is generated, never typed). */
export const SubscriberInputSchema = v.object({
  extension: v.config(
    v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.regex(EXTENSION_PATTERN, SUBSCRIBER_MSG.extensionFormat)),
    { abortPipeEarly: true },
  ),
  display_name: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(255, max(255))),
  user_id: optionalRef,
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

