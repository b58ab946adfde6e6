import * as v from 'valibot';

/**
 * Click-to-call for a CRM (issue 39, ADR 0066): an application holding a tenant API key with the scope
 * `calls.originate` asks Tongdai to ring an agent's phones first and, once the agent answers, to call the
 * customer out as if the agent had dialled from their extension (outbound rules, blocked outgoing numbers,
 * the caller ID the agent's call gets, the switchboard's trunk), then connect the two. The call's record is
 * the agent's outbound call to that number.
 */

/** The applications' surface (its own prefix, not under a tenant: the key names the tenant). */
export const CRM_PUBLIC_API = {
  prefix: '/crm/v1',
  calls: 'calls',
  call: (id: string) => `calls/${id}`,
} as const;

/**
 * A click-to-call's lifecycle as GET /crm/v1/calls/:id reports it: queued (accepted, no worker has it yet),
 * ringing_agent, agent_answered (the customer's leg is being prepared), ringing_customer, answered (the two
 * talk), then completed or failed (with `cause`).
 */
export const CRM_CALL_STATUSES = ['queued', 'ringing_agent', 'agent_answered', 'ringing_customer', 'answered', 'completed', 'failed'] as const;
export type CrmCallStatus = (typeof CRM_CALL_STATUSES)[number];
/** The statuses a call may still leave (a worker, a report or the sweep moves it on). */
export const CRM_CALL_LIVE: readonly CrmCallStatus[] = ['queued', 'ringing_agent', 'agent_answered', 'ringing_customer', 'answered'];

/** Why a click-to-call failed. */
export const CRM_CALL_CAUSES = [
  'agent_no_answer',
  'agent_busy',
  /** The agent's phone was no longer registered, or already in a call, when the call was placed. */
  'agent_unavailable',
  /** The agent hung up before the customer answered. */
  'agent_hung_up',
  'customer_no_answer',
  'customer_busy',
  'customer_failed',
  /** The outbound rules or the blocked-outgoing list refused the number when the customer's leg was planned. */
  'refused',
  /** No media worker took the call in time, or none reported on it any more (it died): swept. */
  'lost',
  'failed',
] as const;
export type CrmCallCause = (typeof CRM_CALL_CAUSES)[number];

/** What refuses a start (422/409, details[0].rule). */
export type CrmCallRefusal =
  | 'unknown_agent'
  | 'invalid_number'
  | 'international'
  | 'not_callable'
  | 'blocked_out'
  | 'premium'
  | 'no_route'
  | 'agent_not_registered'
  | 'agent_busy'
  | 'key_minute_limit';

export const CRM_CALL_LIMITS = {
  /** Calls one key may start per minute (429 beyond). */
  perKeyMinute: 60,
  /** A call no worker took within this many seconds is failed ('lost'): the agent is not rung long after the click. */
  queuedMaxS: 30,
  /** A call ringing or being connected that no worker reported on for this long is failed ('lost'). */
  lostS: 180,
  /** A call answered this long ago without its end being reported is ended ('lost'). */
  answeredMaxS: 4 * 3600,
} as const;

export const CRM_CALL_MSG = {
  unknown_agent: 'Không tìm thấy máy nhánh của nhân viên',
  invalid_number: 'Số điện thoại khách hàng không hợp lệ',
  international: 'Không gọi tới số quốc tế',
  not_callable: 'Không gọi tới số dịch vụ 1800/1900',
  blocked_out: 'Số nằm trong danh sách chặn gọi ra của doanh nghiệp',
  premium: 'Quy tắc gọi ra không cho phép gọi số này',
  no_route: 'Không có quy tắc gọi ra nào cho số này',
  agent_not_registered: 'Máy nhánh của nhân viên chưa đăng nhập trên điện thoại nào',
  agent_busy: 'Nhân viên đang có cuộc gọi khác',
  key_minute_limit: `Khoá API đã yêu cầu quá ${CRM_CALL_LIMITS.perKeyMinute} cuộc gọi trong một phút. Vui lòng thử lại sau`,
  agent: 'Máy nhánh là 2 đến 6 chữ số',
  externalRef: 'Mã tham chiếu tối đa 200 ký tự',
} as const satisfies Record<CrmCallRefusal, string> & Record<string, string>;

/** The agent's phone shows this as the caller while it rings (the customer's number, before it is called). */
export const crmAgentDisplay = (nationalNumber: string): string => `Gọi cho ${nationalNumber}`;

/** POST /crm/v1/calls. `agent` is the agent's extension; `to` the customer's phone (0…, 84…, +84…). */
export const CrmCallStartSchema = v.object({
  agent: v.pipe(v.string(CRM_CALL_MSG.agent), v.trim(), v.regex(/^[0-9]{2,6}$/, CRM_CALL_MSG.agent)),
  to: v.pipe(v.string(CRM_CALL_MSG.invalid_number), v.trim(), v.nonEmpty(CRM_CALL_MSG.invalid_number), v.maxLength(20, CRM_CALL_MSG.invalid_number)),
  external_ref: v.optional(v.pipe(v.string(CRM_CALL_MSG.externalRef), v.trim(), v.maxLength(200, CRM_CALL_MSG.externalRef))),
});
export type CrmCallStartInput = v.InferOutput<typeof CrmCallStartSchema>;

/** GET /crm/v1/calls/:id (and, with status 'queued', the 202 of a start). */
export interface CrmCall {
  id: string;
  status: CrmCallStatus;
  cause: CrmCallCause | null;
  agent: string;
  /** The customer's number, 84… form. */
  to: string;
  external_ref: string | null;
  created_at: string;
  ringing_agent_at: string | null;
  agent_answered_at: string | null;
  ringing_customer_at: string | null;
  answered_at: string | null;
  ended_at: string | null;
  /** Talk time in whole seconds, once ended after an answer. */
  duration_s: number | null;
  /** The call record's id (GET /t/:ma_dn/call-history…), once it is written (after the call ends). */
  cdr_id: number | null;
  /** The customer leg's SIP Call-ID: the call record's call_id. */
  call_id: string | null;
}

/**
 * A click-to-call the media worker places (kind 'click'): leg A rings the agent's extension (`token`, every
 * phone registered to it, no voicemail, no forward), showing `display` and `caller` (the customer's number);
 * on the agent's answer it reports `agent_answered` with leg A's Call-ID and is answered the customer's leg
 * (CrmCustomerLeg), placed and bridged on its answer. Each step is reported (CrmCallReport).
 */
export interface ClickToCallJob {
  kind: 'click';
  /** crm_calls.id, echoed in each report. */
  id: string;
  tenant_id: number;
  attempt: number;
  token: string;
  /** The customer's number in national form: leg A's From user. */
  caller: string;
  /** Leg A's From display name ("Gọi cho 0912…"). */
  display: string;
  ring_s: number;
}

/**
 * What a click-to-call reports, in order: `agent_answered` (answered with the customer's leg), then
 * `answered` (the customer picked up; the two are bridged), then `completed`; or an end before that:
 * agent_no_answer / agent_busy / agent_failed (leg A never answered), agent_hung_up (the agent left before
 * the customer answered), customer_no_answer / customer_busy / customer_failed.
 */
export const CRM_CALL_OUTCOMES = [
  'agent_answered', 'answered', 'completed', 'agent_no_answer', 'agent_busy', 'agent_failed', 'agent_hung_up', 'customer_no_answer', 'customer_busy', 'customer_failed',
] as const;
export type CrmCallOutcome = (typeof CRM_CALL_OUTCOMES)[number];

export interface CrmCallReport {
  kind: 'click';
  id: string;
  tenant_id: number;
  attempt: number;
  outcome: CrmCallOutcome;
  /** With `agent_answered`: leg A's Call-ID; with `answered`: the customer leg's (the call record's). */
  call_id?: string;
  /** With the last report: seconds since the customer answered. */
  duration_s?: number | null;
  status?: number;
}

/** The customer's leg, answered to `agent_answered`: out as the agent's own call, rung at most `ring_s`. */
export interface CrmCustomerLeg {
  token: string;
  ring_s: number;
  /** The agent's extension: the leg's From user (the plan sets the caller ID the carrier sees). */
  caller: string;
}

export interface CrmCallReportAnswer {
  ok: boolean;
  applied: boolean;
  /** Only for `agent_answered`: null when the customer may not be called now (the agent is hung up). */
  customer?: CrmCustomerLeg | null;
}
