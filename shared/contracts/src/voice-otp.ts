import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE } from './constants';
import { DATE_PRESETS, reportParams, reportQuery, type DatePreset } from './reports';
import { intFromQuery } from './surveys';

/**
 * Voice-OTP (issue 35, ADR 0052): a tenant's applications ask Tongdai to call a number and read a
 * code aloud, then ask whether the code their user typed is right. The API keys are managed on
 * /voice-otp/number; the applications' own surface is /otp/v1 (an API key as the bearer).
 */

/** Tenant API paths (under /t/:ma_dn): the screens' reads and the keys' management. */
export const OTP_TENANT_API = {
  keys: 'voice-otp/keys',
  key: (id: number | string) => `voice-otp/keys/${id}`,
  /** POST: the key stops opening anything at once; the row stays for the requests it made. */
  revoke: (id: number | string) => `voice-otp/keys/${id}/revoke`,
  /** POST: a new webhook signing secret, answered once; the old one stops signing at once. */
  webhookSecret: (id: number | string) => `voice-otp/keys/${id}/webhook-secret`,
  verifications: 'voice-otp/verifications',
  /** GET with the list's filters: every request they select, as CSV or XLSX. */
  export: (format: 'csv' | 'xlsx') => `voice-otp/verifications/export.${format}`,
  /** GET with the list's date and key filters: per Vietnam day, the requests and how many calls were answered. */
  stats: 'voice-otp/stats',
  /** POST { phone }: "Gọi thử" — a test OTP call from the screen; answers its id and the code it reads. */
  testCall: 'voice-otp/test-call',
  /** The tenant's hotlines with their OTP switch. */
  numbers: 'voice-otp/numbers',
  number: (id: number | string) => `voice-otp/numbers/${id}`,
} as const;

/** The applications' surface (its own prefix, not under a tenant: the key names the tenant). */
export const OTP_PUBLIC_API = {
  prefix: '/otp/v1',
  verifications: 'verifications',
} as const;

/** What a key may do; a key holds one or more. */
export const OTP_SCOPES = ['verify.start', 'verify.read', 'verify.check'] as const;
/** A CRM's scopes (issue 39): its webhook hears the tenant's call events; it asks for click-to-call calls. */
export const CRM_SCOPES = ['calls.events', 'calls.originate'] as const;
/** Every scope a tenant's API key may hold (one table of keys, ADR 0052). */
export const API_KEY_SCOPES = [...OTP_SCOPES, ...CRM_SCOPES] as const;
export type OtpScope = (typeof OTP_SCOPES)[number];
export type CrmScope = (typeof CRM_SCOPES)[number];
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const OTP_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'verify.start': 'Tạo yêu cầu xác thực (gọi điện)',
  'verify.read': 'Xem trạng thái yêu cầu',
  'verify.check': 'Kiểm tra mã',
  'calls.events': 'Nhận sự kiện cuộc gọi (webhook)',
  'calls.originate': 'Gọi từ CRM (click-to-call)',
};

/** The lifecycle visible to the app and on screen (the call's states, then the code's). */
export const OTP_STATUSES = ['queued', 'calling', 'answered', 'completed', 'no_answer', 'busy', 'failed', 'approved', 'expired'] as const;
export type OtpStatus = (typeof OTP_STATUSES)[number];
export const OTP_STATUS_LABELS: Record<OtpStatus, string> = {
  queued: 'Đang chờ gọi',
  calling: 'Đang gọi',
  answered: 'Đã nghe máy',
  completed: 'Đã đọc mã',
  no_answer: 'Không nghe máy',
  busy: 'Máy bận',
  failed: 'Gọi lỗi',
  approved: 'Đã xác thực',
  expired: 'Hết hạn',
};

export const OTP_CHECK_RESULTS = ['approved', 'wrong_code', 'expired', 'too_many_attempts'] as const;
export type OtpCheckResult = (typeof OTP_CHECK_RESULTS)[number];

/** Limits of the issue; the per-key daily limit is the key's own (default below). */
export const OTP_LIMITS = {
  codeLength: { min: 4, max: 8, default: 6 },
  ttlS: { min: 60, max: 900, default: 300 },
  maxChecks: 5,
  perNumber: 3,
  perNumberWindowMin: 10,
  perKeyDay: 1000,
  perTenantDay: 10_000,
  retryAfterS: 30,
  maxRetryAfterS: 600,
} as const;
export const OTP_DEFAULT_TEMPLATE = 'Mã xác thực của bạn là {code}';

/** Why a start is refused: the `rule` of the 422/429's detail, with the sentence the app may show. */
export const OTP_REFUSALS = ['invalid_number', 'international', 'not_callable', 'blocked_out', 'dnc', 'number_limit', 'key_day_limit', 'tenant_day_limit'] as const;
export type OtpRefusal = (typeof OTP_REFUSALS)[number];

export const OTP_MSG = {
  invalid_number: 'Số điện thoại không hợp lệ',
  international: 'Không gọi OTP tới số quốc tế',
  not_callable: 'Không gọi OTP tới số dịch vụ 1800/1900',
  blocked_out: 'Số nằm trong danh sách chặn gọi ra của doanh nghiệp',
  dnc: 'Số nằm trong danh sách không gọi của doanh nghiệp',
  number_limit: `Số này đã nhận ${OTP_LIMITS.perNumber} cuộc gọi OTP trong ${OTP_LIMITS.perNumberWindowMin} phút qua`,
  key_day_limit: 'Khoá API đã dùng hết số yêu cầu trong ngày',
  tenant_day_limit: 'Doanh nghiệp đã dùng hết số yêu cầu OTP trong ngày',
  codeLength: `Độ dài mã từ ${OTP_LIMITS.codeLength.min} đến ${OTP_LIMITS.codeLength.max} chữ số`,
  codeDigits: 'Mã chỉ gồm chữ số',
  ttl: `Thời hạn từ ${OTP_LIMITS.ttlS.min} đến ${OTP_LIMITS.ttlS.max} giây`,
  template: 'Lời đọc phải chứa {code}',
  scopes: 'Chọn ít nhất một quyền',
  keyName: 'Tên khoá là bắt buộc',
  revoked: 'Khoá đã bị thu hồi',
  retry: 'Thời gian gọi lại từ 0 đến 600 giây (0: không gọi lại)',
  webhookUrl: 'Địa chỉ webhook phải là URL http:// hoặc https:// (tối đa 500 ký tự)',
  webhookHost: 'Địa chỉ webhook trỏ vào mạng nội bộ hoặc cổng dịch vụ của tổng đài: không được phép',
} as const satisfies Record<OtpRefusal, string> & Record<string, string>;

const digits = v.pipe(v.string(OTP_MSG.codeDigits), v.regex(/^\d+$/, OTP_MSG.codeDigits));
const between = (min: number, max: number, message: string) => v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** POST /otp/v1/verifications. A given code sets the length; the phone is checked by the server (its refusals have rules). */
export const OtpStartSchema = v.pipe(
  v.object({
    phone: v.pipe(v.string(OTP_MSG.invalid_number), v.trim(), v.nonEmpty(OTP_MSG.invalid_number), v.maxLength(20, OTP_MSG.invalid_number)),
    code_length: v.optional(between(OTP_LIMITS.codeLength.min, OTP_LIMITS.codeLength.max, OTP_MSG.codeLength)),
    code: v.optional(v.pipe(digits, v.minLength(OTP_LIMITS.codeLength.min, OTP_MSG.codeLength), v.maxLength(OTP_LIMITS.codeLength.max, OTP_MSG.codeLength))),
    ttl_s: v.optional(between(OTP_LIMITS.ttlS.min, OTP_LIMITS.ttlS.max, OTP_MSG.ttl), OTP_LIMITS.ttlS.default),
    template: v.optional(v.pipe(v.string(OTP_MSG.template), v.trim(), v.maxLength(300, 'Tối đa 300 ký tự'), v.includes('{code}', OTP_MSG.template)), OTP_DEFAULT_TEMPLATE),
  }),
  v.forward(
    v.check((b) => b.code === undefined || b.code_length === undefined || b.code.length === b.code_length, OTP_MSG.codeLength),
    ['code_length'],
  ),
);
export type OtpStartInput = v.InferOutput<typeof OtpStartSchema>;

export const OtpCheckSchema = v.object({
  code: v.pipe(v.string(OTP_MSG.codeDigits), v.trim(), v.nonEmpty(OTP_MSG.codeDigits), v.maxLength(OTP_LIMITS.codeLength.max * 2, OTP_MSG.codeDigits)),
});
export type OtpCheckInput = v.InferOutput<typeof OtpCheckSchema>;

/** One moment of a verification's life, as GET answers it. */
export interface OtpEvent {
  status: OtpStatus | 'check';
  at: string;
  /** A check's result, a call's hotline or failure. */
  detail: string;
}

/** GET /otp/v1/verifications/:id. */
export interface OtpVerification {
  id: string;
  status: OtpStatus;
  /** 84… */
  phone: string;
  expires_at: string;
  created_at: string;
  checks: number;
  timeline: OtpEvent[];
}

/** POST /t/:ma_dn/voice-otp/test-call ("Gọi thử"): the number to call; the limits and refusals of a start apply. */
export const OtpTestCallSchema = v.object({
  phone: v.pipe(v.string(OTP_MSG.invalid_number), v.trim(), v.nonEmpty(OTP_MSG.invalid_number), v.maxLength(20, OTP_MSG.invalid_number)),
});
export type OtpTestCallInput = v.InferOutput<typeof OtpTestCallSchema>;
/** The test call started: the user sees the code, to compare with what the phone hears. */
export interface OtpTestCall {
  id: string;
  phone: string;
  code: string;
}

/** POST /t/:ma_dn/voice-otp/keys and PUT …/:id. */
export const OtpKeyInputSchema = v.object({
  name: v.pipe(v.string(OTP_MSG.keyName), v.trim(), v.nonEmpty(OTP_MSG.keyName), v.maxLength(100, 'Tối đa 100 ký tự')),
  scopes: v.optional(v.pipe(v.array(v.picklist(API_KEY_SCOPES, OTP_MSG.scopes), OTP_MSG.scopes), v.minLength(1, OTP_MSG.scopes), v.maxLength(API_KEY_SCOPES.length, OTP_MSG.scopes)), [...OTP_SCOPES]),
  /** One retry this many seconds after an unanswered call; 0: none. A form sends the number as text. */
  retry_after_s: v.optional(
    v.pipe(
      v.union([v.number(OTP_MSG.retry), v.pipe(v.string(OTP_MSG.retry), v.trim(), v.regex(/^\d{1,4}$/, OTP_MSG.retry), v.transform(Number))], OTP_MSG.retry),
      v.integer(OTP_MSG.retry), v.minValue(0, OTP_MSG.retry), v.maxValue(OTP_LIMITS.maxRetryAfterS, OTP_MSG.retry),
    ),
    OTP_LIMITS.retryAfterS,
  ),
  /** Where the key's verifications' status changes are POSTed, signed; '', null or absent: none (a key read back carries null). */
  webhook_url: v.nullish(
    v.pipe(
      v.string(OTP_MSG.webhookUrl), v.trim(), v.maxLength(500, OTP_MSG.webhookUrl),
      v.check((u) => u === '' || isWebhookUrl(u), OTP_MSG.webhookUrl),
    ),
    '',
  ),
});
export type OtpKeyInput = v.InferOutput<typeof OtpKeyInputSchema>;

/**
 * An http(s) URL with a host (a name, an IPv4 or a bracketed IPv6), an optional port and path, and no
 * credentials in it (they would be sent to whoever it names). A pattern, not URL: this package runs
 * without the DOM's or Node's libraries.
 */
const WEBHOOK_URL = /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:\d{1,5})?([/?#][^\s]*)?$/;
export const isWebhookUrl = (text: string): boolean => WEBHOOK_URL.test(text);

/**
 * The webhook (ADR 0052): each status change of a verification the key started is POSTed as JSON to
 * the key's URL with these headers; the signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" with the key's signing secret>`. A 2xx within 10 s takes it; anything else is tried
 * again after OTP_WEBHOOK_RETRY_S (then given up). The event id stays the same across tries.
 */
export const OTP_WEBHOOK_HEADERS = { signature: 'x-tongdai-signature', event: 'x-tongdai-event-id' } as const;
export const OTP_WEBHOOK_RETRY_S = [5, 30, 120, 600, 1800, 3600] as const;
export interface OtpWebhookEvent {
  type: 'verification.status';
  event_id: number;
  verification_id: string;
  status: OtpStatus | 'check';
  /** A check's result (approved, wrong_code…), a retry's time. */
  detail: string;
  at: string;
  /** 84… */
  phone: string;
}

export interface OtpKey {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters, to recognise it (the secret is never shown again). */
  prefix: string;
  daily_limit: number;
  retry_after_s: number;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  webhook_url: string | null;
  /** The last delivery to the webhook: its HTTP status (0: no answer), when; null: none yet. */
  webhook_last: { status: number; at: string; delivered: boolean } | null;
}
/** The answer to a create: the only time the whole key and its webhook signing secret are ever sent. */
export interface OtpKeyCreated extends OtpKey {
  secret: string;
  webhook_secret: string;
}

/** The list's date presets (the screen's dropdown); `from`/`to` say a custom range. */
export const OTP_LIST_PRESETS = (Object.keys(DATE_PRESETS) as DatePreset[]).filter((p) => p !== 'custom');

/** GET /t/:ma_dn/voice-otp/verifications: Vietnam days (a preset, or from/to), status, key. */
export const OtpListQuerySchema = reportQuery({
  preset: v.optional(v.union([v.literal(''), v.picklist(OTP_LIST_PRESETS, 'Khoảng thời gian không hợp lệ')], 'Khoảng thời gian không hợp lệ'), ''),
  from: reportParams.day,
  to: reportParams.day,
  status: v.optional(v.union([v.literal(''), v.picklist(OTP_STATUSES, 'Trạng thái không hợp lệ')], 'Trạng thái không hợp lệ'), ''),
  key_id: reportParams.id,
  /** The start of a number as people type it (0914…, +84914…) or any digits of it. */
  search: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\+?[\d\s.]{0,20}$/, 'Số điện thoại không hợp lệ')), ''),
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
});
export type OtpListQuery = v.InferOutput<typeof OtpListQuerySchema>;

/** The export's columns (the list's, with the key's name for a test call said as the screen says it). */
export const OTP_EXPORT_HEADERS = ['Thời gian', 'Số điện thoại', 'Khoá API', 'Trạng thái', 'Thời lượng gọi (giây)', 'Lần kiểm tra mã'] as const;
export const OTP_TEST_CALL_LABEL = 'Gọi thử trên màn hình';

/** GET voice-otp/stats: each Vietnam day of the range with requests (its calls answered or not), oldest first. */
export interface OtpDayStats {
  day: string;
  /** Requests whose call was placed (answered, completed, no_answer, busy, failed). */
  called: number;
  /** Of those, answered (the code read, or the callee hung up while it was). */
  answered: number;
}
export interface OtpStats {
  days: OtpDayStats[];
  called: number;
  answered: number;
}

/** A row of /voice-otp/list. */
export interface OtpListRow {
  id: string;
  created_at: string;
  phone: string;
  /** null: a test call started on /voice-otp/number ("Gọi thử"), under no key. */
  key_id: number | null;
  key_name: string | null;
  status: OtpStatus;
  call_duration_s: number | null;
  checks: number;
}

/** A hotline as /voice-otp/number lists it. */
export interface OtpNumber {
  id: number;
  number: string;
  switchboard_name: string;
  otp_enabled: boolean;
  /** OTP calls placed from it in the last 30 days, and how many were answered. */
  called_30d: number;
  answered_30d: number;
}
export const OtpNumberUpdateSchema = v.object({ otp_enabled: v.boolean(MSG.required) });
export type OtpNumberUpdate = v.InferOutput<typeof OtpNumberUpdateSchema>;
