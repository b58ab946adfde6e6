import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE } from './constants';
import { VOICE_QUESTION_KINDS } from './media';
import { LabelInputSchema, type LabelInput } from './org';
import { optionalRef, refFilter, requiredRef } from './ref';

/**
 * Surveys (issue 33, ADR 0050): categories and their questions. The agent's screen, the preview and
 * the API read the same kinds, rules and messages from here.
 */

/** Tenant API paths (under /t/:ma_dn). */
export const SURVEY_API = {
  categories: 'survey-categories',
  /** Every category as a dropdown option (id, name, active). */
  categoryOptions: 'survey-categories/all',
  questions: 'survey-questions',
  /** POST { direction: 'up' | 'down' }: swaps the question with its neighbour in the category. */
  move: (id: number | string) => `survey-questions/${id}/move`,
  /** The tenant's greetings a question may play as its recording (SurveyAudioOption[]), for survey.view. */
  audioOptions: 'survey-questions/audio',
} as const;

export const SURVEY_QUESTION_KINDS = ['single', 'multiple', 'rating', 'number', 'yes_no', 'text'] as const;
export type SurveyQuestionKind = (typeof SURVEY_QUESTION_KINDS)[number];
export const SURVEY_KIND_LABELS: Record<SurveyQuestionKind, string> = {
  single: 'Chọn một',
  multiple: 'Chọn nhiều',
  rating: 'Đánh giá 1–5',
  number: 'Số',
  yes_no: 'Có / Không',
  text: 'Văn bản tự do',
};
/** Kinds answered by picking among the question's own options. */
export const CHOICE_KINDS: readonly SurveyQuestionKind[] = ['single', 'multiple'];
export const isChoiceKind = (kind: unknown): boolean => CHOICE_KINDS.includes(kind as SurveyQuestionKind);
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const MAX_OPTIONS = 20;

export const SURVEY_MSG = {
  kind: 'Loại câu hỏi không hợp lệ',
  optionsMin: 'Cần ít nhất 2 lựa chọn',
  optionsMax: `Tối đa ${MAX_OPTIONS} lựa chọn`,
  optionsDuplicate: 'Các lựa chọn không được trùng nhau',
  optionsBlank: 'Các lựa chọn không được để trống',
  categoryUnknown: 'Danh mục không tồn tại',
  /** 409 when a category still has questions. */
  categoryHasQuestions: (n: number) => `Không thể xoá danh mục còn ${n} câu hỏi. Hãy xoá hoặc chuyển các câu hỏi sang danh mục khác trước.`,
  /** 409 when a running campaign asks the question (ADR 0050). */
  questionInUse: 'Câu hỏi đang được dùng trong chiến dịch đang chạy',
  /** An answer the question does not take (the agent's screen, the API saving it). */
  answerInvalid: 'Câu trả lời không hợp lệ',
  answerNumber: 'Hãy nhập một số',
  answerRating: `Hãy chọn từ ${RATING_MIN} đến ${RATING_MAX}`,
  /** 400 on voice_audio_id: not one of the tenant's greetings (another tenant's is invisible under RLS). */
  voiceAudioUnknown: 'Tệp ghi âm không tồn tại',
} as const;

const max = (n: number) => `Tối đa ${n} ký tự`;

/** /survey/categories: a name, a description, active. */
export const SurveyCategoryInputSchema = LabelInputSchema;
export type SurveyCategoryInput = LabelInput;

/** Blank is checked for the choice kinds only: options left in a form switched to "rating" are dropped, not refused. */
const optionText = v.pipe(v.string(SURVEY_MSG.answerInvalid), v.trim(), v.maxLength(200, max(200)));
const questionFields = {
  category_id: requiredRef,
  kind: v.optional(v.picklist(SURVEY_QUESTION_KINDS, SURVEY_MSG.kind), 'single'),
  text: v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(1000, max(1000))),
  options: v.optional(v.pipe(v.array(optionText, SURVEY_MSG.answerInvalid), v.maxLength(MAX_OPTIONS, SURVEY_MSG.optionsMax)), []),
  required: v.optional(v.boolean('Giá trị không hợp lệ'), false),
  /**
   * The question's recording (issue 34): one of the tenant's greetings (pbx_audio), played by an automated voice
   * survey as its prompt instead of speech of the text; "" or null: spoken. Kept only for the kinds a voice survey
   * asks (VOICE_QUESTION_KINDS).
   */
  voice_audio_id: optionalRef,
};
type QuestionFields = v.InferOutput<v.ObjectSchema<typeof questionFields, undefined>>;
const choiceCheck = (ok: (q: QuestionFields) => boolean, message: string) =>
  v.forward<QuestionFields, v.PartialCheckIssue<QuestionFields>, ['options']>(
    v.partialCheck([['kind'], ['options']], (q) => !isChoiceKind(q.kind) || ok(q as QuestionFields), message),
    ['options'],
  );

/** The kinds an automated voice survey can ask: only they keep a recording. */
export const isVoiceKind = (kind: unknown): boolean => (VOICE_QUESTION_KINDS as readonly unknown[]).includes(kind);

/**
 * /survey/question: a choice question has 2 or more distinct options; the other kinds keep none
 * (options typed before switching the kind to "rating" are dropped, not stored). A recording chosen
 * before switching to a kind the phone cannot answer ("text", "multiple") is dropped the same way.
 */
export const SurveyQuestionInputSchema = v.pipe(
  v.object(questionFields),
  choiceCheck((q) => q.options.every((o) => o !== ''), SURVEY_MSG.optionsBlank),
  choiceCheck((q) => q.options.length >= 2, SURVEY_MSG.optionsMin),
  choiceCheck((q) => new Set(q.options.map((o) => o.toLocaleLowerCase('vi'))).size === q.options.length, SURVEY_MSG.optionsDuplicate),
  v.transform((q) => ({ ...q, options: isChoiceKind(q.kind) ? q.options : [], voice_audio_id: isVoiceKind(q.kind) ? q.voice_audio_id : null })),
);
export type SurveyQuestionInput = v.InferOutput<typeof SurveyQuestionInputSchema>;

export const SurveyMoveSchema = v.object({ direction: v.picklist(['up', 'down'], 'Giá trị không hợp lệ') });
export type SurveyMove = v.InferOutput<typeof SurveyMoveSchema>;

/** A whole number from a query string (or JSON), within bounds, defaulted: list paging. */
export const intFromQuery = (min: number, maxValue: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(min), v.maxValue(maxValue)), fallback);
const listQuery = {
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
};
export const SurveyCategoryListQuerySchema = v.object(listQuery);
export type SurveyCategoryListQuery = v.InferOutput<typeof SurveyCategoryListQuerySchema>;
/** Questions of one category (?category_id=) are listed in their order. */
export const SurveyQuestionListQuerySchema = v.object({ ...listQuery, category_id: refFilter });
export type SurveyQuestionListQuery = v.InferOutput<typeof SurveyQuestionListQuerySchema>;

interface Stamped {
  id: number;
  created_at: string;
  updated_at: string;
}
export interface SurveyCategory extends SurveyCategoryInput, Stamped {
  question_count: number;
}
export interface SurveyCategoryOption {
  id: number;
  name: string;
  active: boolean;
}
/** A greeting a question may play as its recording (GET SURVEY_API.audioOptions). */
export interface SurveyAudioOption {
  id: number;
  name: string;
}
export interface SurveyQuestion extends SurveyQuestionInput, Stamped {
  category_name: string;
  /** 1, 2, 3… within the category: the order the agent asks in. */
  position: number;
  /** Bumped when what is asked changes (kind, text, options): an answer names the version it answered. */
  version: number;
}

/**
 * A question as it was asked: what an answer keeps beside its value (ADR 0050), so a later edit of
 * the question never changes what a saved answer says it answered.
 */
export interface QuestionAsAsked {
  question_id: number;
  version: number;
  kind: SurveyQuestionKind;
  text: string;
  options: string[];
}
export const asAsked = (q: Pick<SurveyQuestion, 'id' | 'version' | 'kind' | 'text' | 'options'>): QuestionAsAsked => ({
  question_id: q.id, version: q.version, kind: q.kind, text: q.text, options: [...q.options],
});

/** An answer's value by kind: an option, options, 1–5, a number, yes/no, text; null = not answered. */
export type SurveyAnswerValue = string | string[] | number | boolean | null;

const blank = (x: SurveyAnswerValue | undefined) => x === null || x === undefined || x === '' || (Array.isArray(x) && x.length === 0);

/**
 * Why an answer cannot be saved for this question (required and not answered, an option it does
 * not have, a rating outside 1–5…), or null when it can. One rule for the agent's screen, its
 * preview and the API.
 */
export function answerProblem(q: Pick<QuestionAsAsked, 'kind' | 'options'> & { required: boolean }, value: SurveyAnswerValue | undefined): string | null {
  if (blank(value)) return q.required ? MSG.required : null;
  switch (q.kind) {
    case 'single':
      return typeof value === 'string' && q.options.includes(value) ? null : SURVEY_MSG.answerInvalid;
    case 'multiple':
      return Array.isArray(value) && value.every((x) => q.options.includes(x)) && new Set(value).size === value.length ? null : SURVEY_MSG.answerInvalid;
    case 'rating':
      return Number.isInteger(value) && (value as number) >= RATING_MIN && (value as number) <= RATING_MAX ? null : SURVEY_MSG.answerRating;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : SURVEY_MSG.answerNumber;
    case 'yes_no':
      return typeof value === 'boolean' ? null : SURVEY_MSG.answerInvalid;
    case 'text':
      return typeof value === 'string' && value.length <= 5000 ? null : SURVEY_MSG.answerInvalid;
  }
}
