import * as v from 'valibot';
import { type AgentResult, type CampaignFamily, type CampaignMode, type ContactResult, AGENT_RESULTS, campaignApi } from './campaigns';
import { type Decree91Refusal } from './decree91';
import type { ConsentTerms } from './dnc';
import { type QuestionAsAsked, type SurveyAnswerValue, type SurveyQuestionKind } from './surveys';

/**
 * The agent's working screen of a campaign (issue 33 slice 3, ADR 0050): the hand-out of the next
 * contact, its lease, the answers saved as typed, "Gọi" (Decree 91 checked and claimed by the
 * server) and the result that ends the contact. Paths under /t/:ma_dn, per family, campaign.run.
 */
export const campaignWorkApi = (family: CampaignFamily) => {
  const { base } = campaignApi(family);
  const contact = (id: number | string, contactId: number | string) => `${base}/${id}/contacts/${contactId}`;
  return {
    /** POST: the contact this agent holds, or the next one handed out (null with why when there is none). */
    next: (id: number | string) => `${base}/${id}/next-contact`,
    /** POST: the screen is still open, the lease goes on. */
    lease: (id: number | string, contactId: number | string) => `${contact(id, contactId)}/lease`,
    /** PUT { question_id, value }: one answer, saved as the agent types. */
    answer: (id: number | string, contactId: number | string) => `${contact(id, contactId)}/answers`,
    /** POST: "Gọi" — Decree 91 checked and claimed; allowed gives an attempt the softphone dials. */
    call: (id: number | string, contactId: number | string) => `${contact(id, contactId)}/call`,
    /** POST { result, callback_at }: ends the contact for now. */
    result: (id: number | string, contactId: number | string) => `${contact(id, contactId)}/result`,
    /** GET: the number the softphone dials for this agent's allowed "Gọi" of the last minutes (the page never holds it). */
    dial: (id: number | string, contactId: number | string) => `${contact(id, contactId)}/dial`,
    /** GET / PUT { ready }: a progressive campaign's agent takes the dialer's calls or pauses (ReadyState). */
    ready: (id: number | string) => `${base}/${id}/ready`,
  } as const;
};

/** A held contact returns to the pool this long after the screen last said it is open. */
export const CONTACT_LEASE_SEC = 120;
/** The working screen renews its lease this often (well inside the lease). */
export const CONTACT_LEASE_RENEW_SEC = 30;
/**
 * A progressive campaign's agent is ready this long after the screen last asked for its next contact
 * (it asks every DIALER_POLL_SEC while waiting): a closed tab stops getting calls within 90 s. Not
 * shorter: Chromium runs a hidden tab's timers about once a minute after 5 minutes hidden, and an
 * agent whose screen is behind the softphone is still there. A call to a tab that has gone is
 * abandoned once and pauses the agent (ADR 0055).
 */
export const DIALER_READY_SEC = 90;
export const DIALER_POLL_SEC = 2;
/** An allowed attempt's number is handed to the softphone within this long of "Gọi". */
export const ATTEMPT_DIAL_SEC = 300;

export const WORK_MSG = {
  notRunning: 'Chiến dịch không ở trạng thái đang chạy',
  /** 409: an automated voice survey hands no contact to an agent (the server calls and asks). */
  voiceSurvey: 'Chiến dịch khảo sát tự động: hệ thống tự gọi và hỏi khách hàng, không giao liên hệ cho nhân viên',
  notAgent: 'Bạn không thuộc danh sách nhân viên của chiến dịch này',
  outsideWindow: 'Ngoài khung giờ gọi của chiến dịch',
  empty: 'Đã hết liên hệ cần gọi lúc này',
  notHeld: 'Liên hệ này không còn được giao cho bạn. Hãy lấy liên hệ tiếp theo',
  callbackAt: 'Chọn ngày giờ gọi lại',
  callbackFuture: 'Thời điểm gọi lại phải sau thời điểm hiện tại',
  questionNotAsked: 'Câu hỏi không thuộc chiến dịch này',
  attemptGone: 'Lượt gọi không còn hiệu lực. Hãy bấm Gọi lại',
  /** Progressive campaigns (issue 34): the agent waits, the server dials. */
  waiting: 'Đang chờ hệ thống gọi liên hệ tiếp theo cho bạn',
  notReady: 'Bạn đang tạm dừng nhận cuộc gọi của chiến dịch này',
  noExtension: 'Tài khoản của bạn chưa gắn máy nhánh nên không thể nhận cuộc gọi tự động',
  notProgressive: 'Chiến dịch này không gọi tự động',
  dialerCalls: 'Chiến dịch gọi tự động: hệ thống gọi khách hàng và nối máy cho bạn',
} as const;

/** Where a dialer call stands, as the working screen shows it (issue 34). */
export const DIALER_CALL_STATES = ['calling', 'answered', 'bridged', 'ended'] as const;
export type DialerCallState = (typeof DIALER_CALL_STATES)[number];
export const DIALER_CALL_STATE_LABELS: Record<DialerCallState, string> = {
  calling: 'Đang gọi khách hàng…',
  answered: 'Khách hàng đã nghe máy, đang nối máy cho bạn…',
  bridged: 'Đang nói chuyện với khách hàng',
  ended: 'Cuộc gọi đã kết thúc: hãy chọn kết quả',
};

/** PUT …/:id/ready: the agent takes the dialer's calls (true) or pauses (false). */
export const ReadySchema = v.object({ ready: v.boolean('Giá trị không hợp lệ') });
export type ReadyInput = v.InferOutput<typeof ReadySchema>;
export interface ReadyState {
  ready: boolean;
  /** Until when the server counts the agent ready without hearing from the screen again. */
  ready_until: string | null;
}

/** Why there is no contact to hand out now. */
export const NO_CONTACT_REASONS = ['empty', 'outside_window', 'waiting', 'not_ready', 'no_extension'] as const;
export type NoContactReason = (typeof NO_CONTACT_REASONS)[number];

const INVALID = 'Giá trị không hợp lệ';
export const ContactAnswerSchema = v.object({
  question_id: v.pipe(v.number(INVALID), v.integer(INVALID), v.minValue(1, INVALID)),
  value: v.nullable(
    v.union([v.pipe(v.string(INVALID), v.maxLength(5000, INVALID)), v.pipe(v.array(v.pipe(v.string(INVALID), v.maxLength(200, INVALID))), v.maxLength(20, INVALID)), v.number(INVALID), v.boolean(INVALID)], INVALID),
  ),
});
export type ContactAnswer = v.InferOutput<typeof ContactAnswerSchema>;

/** A result; "Hẹn gọi lại" needs the date and time (ISO), checked to be later than now by the server. */
export const ContactResultSchema = v.pipe(
  v.object({
    result: v.picklist(AGENT_RESULTS, INVALID),
    callback_at: v.optional(v.nullable(v.pipe(v.string(INVALID), v.isoTimestamp(INVALID))), null),
  }),
  v.forward<{ result: AgentResult; callback_at: string | null }, v.PartialCheckIssue<{ result: AgentResult; callback_at: string | null }>, ['callback_at']>(
    v.partialCheck([['result'], ['callback_at']], (r) => r.result !== 'callback' || !!r.callback_at, WORK_MSG.callbackAt),
    ['callback_at'],
  ),
);
export type ContactResultInput = v.InferOutput<typeof ContactResultSchema>;

/** A question of the campaign as the screen asks it (its current version, what an answer will keep). */
export interface WorkQuestion {
  id: number;
  version: number;
  kind: SurveyQuestionKind;
  text: string;
  options: string[];
  required: boolean;
}

export interface WorkAttempt {
  id: number;
  started_at: string;
  agent_name: string | null;
  result: ContactResult | null;
  refusal: Decree91Refusal | null;
}

/** The contact the agent works on: masked or full number per the tenant's setting, its CRM card when it is a customer. */
export interface WorkContact {
  id: number;
  campaign_id: number;
  name: string;
  /** As the viewer may see it (masked when the tenant hides numbers); the softphone asks for the real one. */
  phone: string;
  fields: Record<string, string>;
  attempts: number;
  /** A callback this agent set, now due. */
  callback: boolean;
  held_until: string;
  customer: { id: number; name: string; code: string } | null;
  /** The subscriber's consent in force (the latest recorded), what it lifts (Decree 91); absent: none. */
  consent?: ConsentTerms | null;
  history: WorkAttempt[];
  /** Saved answers by question id, each with the question as it was asked. */
  answers: Record<string, { value: SurveyAnswerValue; question: QuestionAsAsked }>;
  /** A progressive campaign's call to this contact, where it stands; null in preview or before a call. */
  dialer?: { state: DialerCallState } | null;
}

export interface WorkCampaign {
  id: number;
  family: CampaignFamily;
  name: string;
  purpose: string;
  hotline_number: string;
  script: string;
  questions: WorkQuestion[];
  /** Preview: the agent presses "Gọi"; progressive: the server dials and the call comes to the agent. */
  mode: CampaignMode;
}

/** POST …/work/next: the campaign, and the contact held (or why there is none). */
export interface WorkNext {
  campaign: WorkCampaign;
  contact: WorkContact | null;
  reason: NoContactReason | null;
  message: string | null;
}

/** "Gọi": allowed (the attempt the softphone dials) or refused by Decree 91 with why. */
export type CallDecision =
  | { allowed: true; attempt_id: number }
  | { allowed: false; reason: Decree91Refusal; message: string };

/** The script with the contact's fields: {{name}}, {{phone}}, {{any import column}}; an unknown field stays as written. */
export function fillScript(script: string, contact: Pick<WorkContact, 'name' | 'phone' | 'fields'>): string {
  const values: Record<string, string> = { ...contact.fields, name: contact.name, phone: contact.phone, 'tên': contact.name };
  const lower = new Map(Object.entries(values).map(([k, x]) => [k.trim().toLocaleLowerCase('vi'), x]));
  return script.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (whole, key: string) => lower.get(key.toLocaleLowerCase('vi')) ?? whole);
}
