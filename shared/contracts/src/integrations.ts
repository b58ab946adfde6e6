import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { intFromQuery } from './surveys';
import { CRM_SCOPES, OTP_MSG, OtpKeyInputSchema, type ApiKeyScope } from './voice-otp';

/**
 * CRM integrations (issue 39, ADR 0065): a tenant's API key with the scope `calls.events` and a
 * webhook URL hears the tenant's calls, signed like voice-OTP's webhooks (OTP_WEBHOOK_HEADERS).
 */
export const CALL_WEBHOOK_EVENTS = ['call.ringing', 'call.answered', 'call.ended'] as const;
export type CallWebhookEventType = (typeof CALL_WEBHOOK_EVENTS)[number];
export const CALL_WEBHOOK_EVENT_LABELS: Record<CallWebhookEventType, string> = {
  'call.ringing': 'Đổ chuông',
  'call.answered': 'Trả lời',
  'call.ended': 'Kết thúc',
};

/** The CRM customer the outside party's number belongs to (the newest of the tenant's customers with it). */
export interface CallWebhookCustomer {
  id: number;
  name: string;
  code: string;
}

/** The agent who answered: the extension, and its user when one holds it. */
export interface CallWebhookAgent {
  extension: string;
  user_id: number | null;
  name: string | null;
}

/**
 * What a CRM's webhook receives (POST, JSON). Numbers are sent in full even while the tenant hides
 * customers' numbers on its screens: the key was made by an admin for a trusted system (ADR 0065).
 */
export interface CallWebhookEvent {
  type: CallWebhookEventType;
  /** `<call_id>:<event>`: the same across retries; a receiver drops what it has seen. */
  event_id: string;
  call_id: string;
  /** When it happened (ISO 8601). */
  at: string;
  direction: 'inbound' | 'outbound';
  caller: string;
  /** The number called (an extension's outbound call: the customer's number). */
  callee: string;
  /** The tenant's number the call came in on (inbound) or presented (outbound), national form; null when none. */
  hotline: string | null;
  customer: CallWebhookCustomer | null;
  /** call.answered and call.ended: who answered (null: nobody, or a person outside the PBX). */
  agent?: CallWebhookAgent | null;
  /** call.ended: seconds from the first ring to the end, and of talk. */
  duration?: number;
  talk_time?: number;
  /** call.ended: the call record's disposition (ANSWERED, NO ANSWER, BUSY, FAILED, VOICEMAIL, …). */
  result?: string;
  /**
   * call.ended: where the CRM fetches the recording with its key (ADR 0065). Always null until that route is
   * built: a link to nothing would be worse than none.
   */
  recording_url?: string | null;
}

/** Tenant routes under /t/:ma_dn (integrations.manage). */
export const INTEGRATIONS_TENANT_API = {
  keys: 'integrations/keys',
  revoke: (id: number | string) => `integrations/keys/${id}/revoke`,
  webhookSecret: (id: number | string) => `integrations/keys/${id}/webhook-secret`,
  /** GET ?key_id=&page=&per_page=: the deliveries of the tenant's CRM keys (or one of them), newest first. */
  deliveries: 'integrations/deliveries',
} as const;

export type CallDeliveryStatus = 'delivered' | 'retrying' | 'given_up';
export const CALL_DELIVERY_STATUS_LABELS: Record<CallDeliveryStatus, string> = {
  delivered: 'Đã gửi',
  retrying: 'Đang thử lại',
  given_up: 'Đã bỏ',
};

/** One line of a key's delivery log (newest first). */
export interface CallDelivery {
  id: number;
  key_id: number;
  key_name: string;
  created_at: string;
  event: CallWebhookEventType;
  call_id: string;
  status: CallDeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_at: string | null;
  delivered_at: string | null;
}

/** POST /t/:ma_dn/integrations/keys: a key for a CRM (its scopes are the CRM's only). */
export const IntegrationKeyInputSchema = v.object({
  name: OtpKeyInputSchema.entries.name,
  scopes: v.optional(v.pipe(v.array(v.picklist(CRM_SCOPES, OTP_MSG.scopes), OTP_MSG.scopes), v.minLength(1, OTP_MSG.scopes), v.maxLength(CRM_SCOPES.length, OTP_MSG.scopes)), ['calls.events']),
  webhook_url: OtpKeyInputSchema.entries.webhook_url,
});
export type IntegrationKeyInput = v.InferOutput<typeof IntegrationKeyInputSchema>;

/** GET …/integrations/deliveries */
export const CallDeliveryQuerySchema = v.object({
  key_id: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'Khoá API không hợp lệ'), v.transform(Number))], 'Khoá API không hợp lệ'), ''),
  /** Any part of the call's id. */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
});
export type CallDeliveryQuery = v.InferOutput<typeof CallDeliveryQuerySchema>;

/** Whether a key holds one of the CRM's scopes (listed on /integrations) or of voice-OTP's (on /voice-otp/number). */
export const isCrmKey = (scopes: readonly ApiKeyScope[]): boolean => scopes.some((s) => (CRM_SCOPES as readonly string[]).includes(s));
export const isOtpKey = (scopes: readonly ApiKeyScope[]): boolean => scopes.some((s) => !(CRM_SCOPES as readonly string[]).includes(s));
