import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import { CAMPAIGN_KINDS, type CampaignKind, type Decree91Refusal } from './decree91';
import { MSG } from './messages';
import { optionalRef, requiredRef } from './ref';
import type { RecordingRef } from './recording';
import type { CallResult } from './reports';
import { intFromQuery } from './surveys';

/**
 * Survey and marketing campaigns (issue 33, ADR 0050): what a campaign is, its state machine, its
 * contacts and their imports. The API, the screens and (next) the agent's working screen read the
 * same names, rules and Vietnamese messages from here.
 */

/** The two SPEC lists: /survey/campaign asks questions, /marketings/campaign reads a script. */
export const CAMPAIGN_FAMILIES = ['survey', 'marketing'] as const;
export type CampaignFamily = (typeof CAMPAIGN_FAMILIES)[number];

/** Tenant API paths (under /t/:ma_dn), one base per family: each behind its own purchased feature. */
export const campaignApi = (family: CampaignFamily) => {
  const base = `${family}-campaigns`;
  return {
    base,
    /** The form's dropdowns: questions, agents, teams, time groups, hotlines, the CRM filter's labels. */
    options: `${base}/options`,
    one: (id: number | string) => `${base}/${id}`,
    /** POST { to }: start, pause, resume, end. */
    state: (id: number | string) => `${base}/${id}/state`,
    progress: (id: number | string) => `${base}/${id}/progress`,
    /** GET a page of contacts; DELETE empties the list (a draft's only). */
    contacts: (id: number | string) => `${base}/${id}/contacts`,
    /** POST multipart (file, name_column, phone_column, commit, skip_invalid): preview or import an XLSX/CSV. */
    importFile: (id: number | string) => `${base}/${id}/contacts/file`,
    /** POST CrmFilter: preview or import the tenant's customers. */
    importCrm: (id: number | string) => `${base}/${id}/contacts/crm`,
    /** POST GoogleSheetImport: preview or import a tab of a Google Sheet (the tenant's service account reads it). */
    importSheet: (id: number | string) => `${base}/${id}/contacts/sheet`,
  } as const;
};

export const CAMPAIGN_STATES = ['draft', 'running', 'paused', 'ended'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];
export const CAMPAIGN_STATE_LABELS: Record<CampaignState, string> = {
  draft: 'Nháp',
  running: 'Đang chạy',
  paused: 'Tạm dừng',
  ended: 'Kết thúc',
};

/**
 * nháp → đang chạy ↔ tạm dừng → kết thúc; a draft may be ended without running; ended is final.
 * One table read by the server (which enforces it) and the screen (which offers only these).
 */
export const CAMPAIGN_TRANSITIONS: Record<CampaignState, readonly CampaignState[]> = {
  draft: ['running', 'ended'],
  running: ['paused', 'ended'],
  paused: ['running', 'ended'],
  ended: [],
};
export const canTransition = (from: CampaignState, to: CampaignState): boolean => CAMPAIGN_TRANSITIONS[from].includes(to);

/** The action's label on the screen, by the state it leads to (and where from: running again is "Tiếp tục"). */
export const transitionLabel = (from: CampaignState, to: CampaignState): string =>
  to === 'running' ? (from === 'paused' ? 'Tiếp tục' : 'Bắt đầu') : to === 'paused' ? 'Tạm dừng' : 'Kết thúc';

/** What an agent sets as a contact's call's result on the working screen. */
export const AGENT_RESULTS = ['agreed', 'declined', 'callback', 'wrong_number', 'no_answer', 'busy'] as const;
export type AgentResult = (typeof AGENT_RESULTS)[number];
/**
 * What a contact's call ended with (results count them): an agent's result, or what the dialer saw
 * with no agent on the line — answered with no agent taking it (abandoned), or a call that failed.
 */
export const CONTACT_RESULTS = [...AGENT_RESULTS, 'abandoned', 'failed'] as const;
export type ContactResult = (typeof CONTACT_RESULTS)[number];
export const CONTACT_RESULT_LABELS: Record<ContactResult, string> = {
  agreed: 'Đồng ý',
  declined: 'Từ chối',
  callback: 'Hẹn gọi lại',
  wrong_number: 'Sai số',
  no_answer: 'Không nghe máy',
  busy: 'Máy bận',
  abandoned: 'Bỏ lỡ (không có nhân viên nhận)',
  failed: 'Gọi lỗi',
};

/**
 * How a campaign's calls are placed (issue 34): the agent presses "Gọi" (preview); the server dials one
 * contact for each agent ready on the working screen and connects the answered call to that agent
 * (progressive); or it dials ahead of its agents, as many calls as its pacing (ADR 0054) judges the
 * campaign's abandon cap allows, and connects each answered call to the agent free longest
 * (predictive). A survey campaign may also be an automated voice survey (voice): the server calls
 * its contacts with no agent, says each question and takes the keys pressed as the answers.
 */
export const CAMPAIGN_MODES = ['preview', 'progressive', 'predictive', 'voice'] as const;
export type CampaignMode = (typeof CAMPAIGN_MODES)[number];
export const CAMPAIGN_MODE_LABELS: Record<CampaignMode, string> = {
  preview: 'Xem trước (nhân viên bấm Gọi)',
  progressive: 'Gọi tự động (mỗi nhân viên sẵn sàng một cuộc)',
  predictive: 'Dự đoán (gọi trước cho nhân viên, giữ tỷ lệ bỏ lỡ dưới mức trần)',
  voice: 'Khảo sát tự động (máy gọi và đọc câu hỏi, khách bấm phím trả lời)',
};
/** A marketing campaign's modes: an automated voice survey is a survey's only. */
export const MARKETING_MODES = CAMPAIGN_MODES.filter((m) => m !== 'voice');
/** The modes where the server's dialer places the calls for agents who only say they are ready. */
export const isDialerMode = (mode: CampaignMode): boolean => mode === 'progressive' || mode === 'predictive';
/** How many calls an automated voice survey keeps up at once ("Số cuộc gọi cùng lúc"). */
export const VOICE_CHANNELS = { min: 1, max: 30, default: 5 } as const;
/** The abandon cap a predictive campaign may set, in whole percent of its answered calls (regulators: at most 3 %). */
export const ABANDON_CAP_PCT = { min: 1, max: 3, default: 3 } as const;

/** A contact's place in the hand-out (ADR 0050): waiting, held by an agent (leased), called back later, done, refused by Decree 91. */
export const CONTACT_STATES = ['pending', 'held', 'callback', 'done', 'refused'] as const;
export type ContactState = (typeof CONTACT_STATES)[number];

export const CAMPAIGN_MSG = {
  questionsMin: 'Chọn ít nhất một câu hỏi',
  scriptRequired: 'Nhập kịch bản cho nhân viên',
  agentsMin: 'Chọn nhân viên hoặc nhóm thực hiện',
  /** An automated voice survey: a survey campaign's mode only, asking what keys can answer. */
  voiceSurveyOnly: 'Khảo sát tự động chỉ dùng cho chiến dịch khảo sát',
  voiceQuestionKind: 'Khảo sát tự động chỉ hỏi được câu hỏi Đánh giá 1–5, Có / Không, Số hoặc Chọn một (tối đa 9 lựa chọn)',
  hotlineUnknown: 'Hotline không tồn tại',
  /** Decree 91: an advertising campaign calls only from a hotline registered as a "tên định danh". */
  hotlineNotAdvertising: 'Chiến dịch quảng cáo chỉ được dùng hotline đã đăng ký tên định danh quảng cáo',
  timeGroupUnknown: 'Nhóm thời gian không tồn tại',
  questionUnknown: 'Câu hỏi không tồn tại',
  agentUnknown: 'Nhân viên không tồn tại',
  teamUnknown: 'Nhóm không tồn tại',
  /** 409 CAMPAIGN_STATE messages. */
  transition: (from: CampaignState, to: CampaignState) =>
    from === 'ended'
      ? 'Chiến dịch đã kết thúc, không thể thay đổi'
      : `Không thể chuyển chiến dịch từ "${CAMPAIGN_STATE_LABELS[from]}" sang "${CAMPAIGN_STATE_LABELS[to]}"`,
  noContacts: 'Chiến dịch chưa có liên hệ nào để gọi',
  ended: 'Chiến dịch đã kết thúc, không thể thay đổi',
  /** While running or paused, the contact list only grows. */
  contactsOnlyAdded: 'Chiến dịch đang chạy hoặc tạm dừng: danh sách liên hệ chỉ được thêm, không được xoá hay sửa',
  lockedWhileRunning: 'Không thể đổi loại, hotline, chế độ gọi hoặc câu hỏi khi chiến dịch đang chạy. Hãy tạm dừng trước',
  deleteOnlyDraft: 'Chỉ xoá được chiến dịch nháp. Chiến dịch đã chạy chỉ có thể kết thúc',
  /** Import rows. */
  duplicateInFile: (row: number) => `Số điện thoại trùng với dòng ${row}`,
  alreadyInCampaign: 'Số điện thoại đã có trong chiến dịch',
  nameColumn: 'Chọn cột tên',
  phoneColumn: 'Chọn cột số điện thoại',
  columnsSame: 'Cột tên và cột số điện thoại phải khác nhau',
  emptyFile: 'Tệp không có dòng dữ liệu nào',
  /** The Google Sheet source. */
  noGoogleAccount: 'Chưa cấu hình tài khoản dịch vụ Google: vào Cài đặt Google Sheet để nhập tệp JSON',
  unknownUser: 'Người dùng không tồn tại',
  tooManyRows: (n: number) => `Tối đa ${n.toLocaleString('vi-VN')} liên hệ mỗi lần nhập`,
} as const;

/** At most this many contacts come in one import (a file or a CRM filter). */
export const CONTACT_IMPORT_MAX_ROWS = 100_000;
/** Rows of a preview the screen shows (the counts are of every row). */
export const CONTACT_PREVIEW_ROWS = 20;

const INVALID = 'Giá trị không hợp lệ';
const max = (n: number) => `Tối đa ${n} ký tự`;
const minutes = (min: number, maxValue: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.number(INVALID), v.pipe(v.string(INVALID), v.trim(), v.regex(/^-?\d+$/, 'Phải là số nguyên'), v.transform(Number))], INVALID),
      v.integer('Phải là số nguyên'),
      v.minValue(min, `Tối thiểu ${min}`),
      v.maxValue(maxValue, `Tối đa ${maxValue}`),
    ),
    fallback,
  );
const refs = v.optional(v.pipe(v.array(requiredRef, INVALID), v.maxLength(500, INVALID)), []);

const campaignFields = {
  name: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(200, max(200))),
  /** Advertising or not: what Decree 91 reads (ADR 0049). */
  purpose: v.optional(v.picklist(CAMPAIGN_KINDS, INVALID), 'care'),
  /** Survey campaigns: the questions in the order asked. */
  question_ids: refs,
  /** What the agent reads; {{field}} is filled from the contact (name, phone, an import column). */
  script: v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(5000, max(5000))), ''),
  agent_ids: refs,
  team_ids: refs,
  /** The calling window (a PBX time group); none: any time (for advertising, 08–17 applies anyway). */
  time_group_id: optionalRef,
  /** The caller ID. */
  hotline_id: requiredRef,
  /** Who places the calls: the agent (preview) or the server's dialer (progressive, predictive). Locked while running. */
  mode: v.optional(v.picklist(CAMPAIGN_MODES, INVALID), 'preview'),
  /** Predictive: at most this share of the answered calls abandoned (whole percent, 1–3). */
  abandon_cap_pct: minutes(ABANDON_CAP_PCT.min, ABANDON_CAP_PCT.max, ABANDON_CAP_PCT.default),
  /** An automated voice survey: its calls up at once (each is a channel of the hotline's switchboard). */
  voice_channels: minutes(VOICE_CHANNELS.min, VOICE_CHANNELS.max, VOICE_CHANNELS.default),
  /** Retries: a busy number after N minutes, an unanswered one after N minutes, at most N attempts. */
  retry_busy_min: minutes(1, 10_080, 30),
  retry_no_answer_min: minutes(1, 10_080, 60),
  max_attempts: minutes(1, 20, 3),
  description: v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(1000, max(1000))), ''),
};
type CampaignFields = v.InferOutput<v.ObjectSchema<typeof campaignFields, undefined>>;

/** A campaign of one family: a survey asks questions, a marketing campaign reads a script; someone makes the calls. */
export const campaignInputSchema = (family: CampaignFamily) =>
  v.pipe(
    v.object(campaignFields),
    v.forward<CampaignFields, v.PartialCheckIssue<CampaignFields>, ['question_ids']>(
      v.partialCheck([['question_ids']], (c) => family !== 'survey' || c.question_ids.length > 0, CAMPAIGN_MSG.questionsMin),
      ['question_ids'],
    ),
    v.forward<CampaignFields, v.PartialCheckIssue<CampaignFields>, ['script']>(
      v.partialCheck([['script']], (c) => family !== 'marketing' || c.script !== '', CAMPAIGN_MSG.scriptRequired),
      ['script'],
    ),
    v.forward<CampaignFields, v.PartialCheckIssue<CampaignFields>, ['mode']>(
      v.partialCheck([['mode']], (c) => family === 'survey' || c.mode !== 'voice', CAMPAIGN_MSG.voiceSurveyOnly),
      ['mode'],
    ),
    // An automated voice survey has no agents: the server asks the questions.
    v.forward<CampaignFields, v.PartialCheckIssue<CampaignFields>, ['agent_ids']>(
      v.partialCheck([['agent_ids'], ['team_ids'], ['mode']], (c) => c.mode === 'voice' || c.agent_ids.length + c.team_ids.length > 0, CAMPAIGN_MSG.agentsMin),
      ['agent_ids'],
    ),
    v.transform((c) => ({ ...c, question_ids: family === 'survey' ? [...new Set(c.question_ids)] : [], agent_ids: [...new Set(c.agent_ids)], team_ids: [...new Set(c.team_ids)] })),
  );
export const SurveyCampaignInputSchema = campaignInputSchema('survey');
export const MarketingCampaignInputSchema = campaignInputSchema('marketing');
export type CampaignInput = v.InferOutput<typeof SurveyCampaignInputSchema>;

export const CampaignTransitionSchema = v.object({ to: v.picklist(['running', 'paused', 'ended'], INVALID) });
export type CampaignTransition = v.InferOutput<typeof CampaignTransitionSchema>;

export const CampaignListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  state: v.optional(v.picklist(['', ...CAMPAIGN_STATES]), ''),
});
export type CampaignListQuery = v.InferOutput<typeof CampaignListQuerySchema>;
export const ContactListQuerySchema = v.object({ page: intFromQuery(1, 1_000_000, 1), per_page: intFromQuery(1, 100, PAGE_SIZE) });
export type ContactListQuery = v.InferOutput<typeof ContactListQuerySchema>;

/** Live progress: contacts done of the total, per result, refused by Decree 91 per reason. */
export interface CampaignProgress {
  total: number;
  done: number;
  pending: number;
  by_result: Partial<Record<ContactResult, number>>;
  refused: Partial<Record<Decree91Refusal, number>>;
  /** A progressive campaign's dialer now and so far (issue 34); absent for preview campaigns. */
  dialer?: DialerProgress;
}

/** The dialer's live figures: its calls ringing and talking now, agents ready and waiting, answered and abandoned so far. */
export interface DialerProgress {
  /** Calls ringing the contact, or answered and being connected. */
  calling: number;
  /** Calls connected to an agent now. */
  talking: number;
  /** Agents ready on the working screen (waiting or in a call). */
  ready: number;
  /** Contacts who answered, so far. */
  answered: number;
  /** Of those, abandoned: answered with no agent taking the call. */
  abandoned: number;
  /**
   * The campaign's hotline's calls-per-minute cap and the dialer calls started through it in the last
   * 60 s (every campaign calling from it); null when the hotline has no cap. At the cap, calls wait.
   */
  hotline_minute: { cap: number; started: number } | null;
}

/** "Bỏ lỡ 1,2 %": abandoned over answered, as regulators count it (0 before any answer). */
export const abandonRate = (d: Pick<DialerProgress, 'answered' | 'abandoned'>): number => (d.answered ? d.abandoned / d.answered : 0);

export interface Campaign extends CampaignInput {
  id: number;
  family: CampaignFamily;
  state: CampaignState;
  hotline_number: string;
  time_group_name: string | null;
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
  progress: CampaignProgress;
}

export interface CampaignContact {
  id: number;
  /** Stored form (84…). */
  number: string;
  name: string;
  /** Extra import columns by header, for the script's {{field}}. */
  fields: Record<string, string>;
  customer_id: number | null;
  state: ContactState;
  attempts: number;
  result: ContactResult | null;
  created_at: string;
  /** The contact's latest call placed after an allowed "Gọi" (the attempt ↔ CDR link, ADR 0050); null: none yet. */
  call: ContactCall | null;
}

/**
 * A campaign attempt's call as its record says (the CDR, written when the call ends): until then
 * `result` and the times are null. `recording` only for a viewer holding recording.listen.
 */
export interface ContactCall {
  attempt_id: number;
  call_id: string;
  /** When the agent pressed "Gọi". */
  attempt_at: string;
  started_at: string | null;
  answered_at: string | null;
  /** Talk time, seconds (the record's billsec); null while the call has no record. */
  talk_seconds: number | null;
  result: CallResult | null;
  recording: RecordingRef | null;
}

export interface CampaignOptions {
  questions: { id: number; text: string; category_name: string }[];
  agents: { id: number; name: string; extension: string | null }[];
  teams: { id: number; name: string }[];
  time_groups: { id: number; name: string }[];
  /** Caller IDs; `advertising_identity`: registered for advertising (Decree 91). */
  hotlines: { id: number; number: string; advertising_identity: boolean }[];
  /** The CRM filter's labels. */
  data_sources: { id: number; name: string }[];
  projects: { id: number; name: string }[];
  profile_statuses: { id: number; name: string }[];
  departments: { id: number; name: string }[];
}

/** Customers by data source, project, profile status and the department of their owner (null: any). */
export const CrmFilterSchema = v.object({
  data_source_id: optionalRef,
  project_id: optionalRef,
  profile_status_id: optionalRef,
  department_id: optionalRef,
  commit: v.optional(v.boolean(INVALID), false),
  skip_invalid: v.optional(v.boolean(INVALID), false),
});
export type CrmFilter = v.InferOutput<typeof CrmFilterSchema>;

const requiredText = (maxLength: number) => v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(maxLength, max(maxLength)));
/** A mapped column of the sheet: its index in the header, null = guessed from the header. */
const sheetColumn = v.optional(v.nullable(v.pipe(v.number(INVALID), v.integer(INVALID), v.minValue(-1, INVALID), v.maxValue(9999, INVALID))), null);

/**
 * The SPEC's sheet import: name (the list's name), sheet_id (the spreadsheet's id from its address),
 * sheet_name (the tab) and user_id (the user importing for: a user of the tenant), all required;
 * then the same mapping, preview and "bỏ qua dòng lỗi" as a file.
 */
export const GoogleSheetImportSchema = v.object({
  name: requiredText(200),
  sheet_id: v.pipe(requiredText(200), v.regex(/^[A-Za-z0-9_-]+$/, INVALID)),
  sheet_name: requiredText(100),
  user_id: requiredRef,
  name_column: sheetColumn,
  phone_column: sheetColumn,
  commit: v.optional(v.boolean(INVALID), false),
  skip_invalid: v.optional(v.boolean(INVALID), false),
});
export type GoogleSheetImport = v.InferOutput<typeof GoogleSheetImportSchema>;

/** The tenant's Google service account (tenant API path, under /t/:ma_dn): GET shows its e-mail, PUT sets its key file. */
export const GOOGLE_CREDENTIALS_API = 'google-credentials';
/** Its settings card: /setting/google-sheet (the host's settings area). */
export const GOOGLE_SHEET_SETTING = 'google-sheet';
/** What the settings screen shows: never the key, only whose it is. */
export interface GoogleCredentialsView {
  client_email: string | null;
  updated_at: string | null;
}
/** The key file's JSON as text; "" keeps the stored one ("để trống để giữ"). */
export const GoogleCredentialsSchema = v.object({
  key_json: v.pipe(v.optional(v.string(INVALID), ''), v.trim(), v.maxLength(20_000, max(20_000))),
});
export type GoogleCredentialsInput = v.InferOutput<typeof GoogleCredentialsSchema>;

/** A row refused by an import: its row (1 = a file's header; a CRM row counts from 1), the number as written, why. */
export interface ContactRowError {
  row: number;
  phone: string;
  name: string;
  message: string;
}

/** What an import would add (preview) or added: counts of every row, the first rows, each refused row. */
export interface ContactImportResult {
  /** A file's header cells (the mapping's choices); [] for the CRM. */
  columns: string[];
  /** The columns used: name, phone (indexes into `columns`). */
  mapping: { name_column: number; phone_column: number } | null;
  rows: number;
  valid: number;
  /** The first valid rows, as they will be stored. */
  sample: { name: string; number: string; fields: Record<string, string> }[];
  errors: ContactRowError[];
  /** Written: 0 for a preview, or when rows are invalid and "bỏ qua dòng lỗi" was not chosen. */
  imported: number;
  committed: boolean;
}

export type { CampaignKind };
