import { campaignApi, type CampaignFamily, type CampaignProgress, type ContactResult } from './campaigns';
import type { Decree91Refusal } from './decree91';
import type { SurveyQuestionKind } from './surveys';

/**
 * Results of one campaign (issue 33 slice 4, ADR 0050): one read model on the server, the same
 * names on the screen and in the export.
 */
export const campaignResultsApi = (family: CampaignFamily) => {
  const { one } = campaignApi(family);
  return {
    /** GET: the results (campaign.view). */
    results: (id: number | string) => `${one(id)}/results`,
    /** GET: the contacts with their results and answers, streamed (campaign.export). */
    export: (id: number | string, format: 'csv' | 'xlsx') => `${one(id)}/results/export.${format}`,
  } as const;
};

/** Outcomes of a group of attempts (an agent's, a day's): every try, the refused ones, per result. */
export interface AttemptOutcomes {
  attempts: number;
  refused: number;
  by_result: Partial<Record<ContactResult, number>>;
}

/** Answers to one question: per option (choice, yes/no, rating), the average (number, rating), free texts counted. */
export interface QuestionResults {
  question_id: number;
  /** The text and kind as last asked. */
  text: string;
  kind: SurveyQuestionKind;
  /** Contacts with an answer. */
  answered: number;
  /** In the question's order (yes/no: Có, Không; rating: 1–5), then answers to options no longer offered. */
  options: { label: string; count: number }[];
  average: number | null;
}

export interface CampaignResults {
  /** Contacts: done / total, per result, refused per reason. */
  progress: CampaignProgress;
  /** Every attempt, and those refused per Decree 91 reason. */
  attempts: { total: number; refused: number; refusals: Partial<Record<Decree91Refusal, number>> };
  questions: QuestionResults[];
  agents: (AttemptOutcomes & { user_id: number | null; name: string })[];
  /** Days in Vietnam time (Asia/Ho_Chi_Minh), yyyy-mm-dd, oldest first. */
  days: (AttemptOutcomes & { day: string })[];
}

export const YES_NO_LABELS = { true: 'Có', false: 'Không' } as const;

/** The export's first columns; one column per question follows (survey). */
export const CAMPAIGN_RESULTS_EXPORT_HEADERS = [
  'Tên', 'Số điện thoại', 'Trạng thái', 'Kết quả', 'Lý do từ chối', 'Số lần gọi', 'Nhân viên', 'Lần gọi cuối',
] as const;

export const CONTACT_STATE_LABELS = {
  pending: 'Chờ gọi', held: 'Đang gọi', callback: 'Hẹn gọi lại', done: 'Đã xong', refused: 'Bị chặn',
} as const;
