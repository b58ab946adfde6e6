import {
  NAME_TAKEN, SURVEY_MSG, type Paged, type SurveyCategory, type SurveyCategoryInput, type SurveyCategoryListQuery, type SurveyQuestion,
  type SurveyQuestionInput, type SurveyQuestionListQuery,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError, ConflictError, isForeignKeyViolation, isUniqueViolation, violationText } from '../../http/errors';
import * as repo from './surveys.repository';

/**
 * Who still asks a question. Campaigns (ADR 0050) answer it: the campaign module's service gives
 * `campaignQuestionUsage`, counting the running and paused campaigns whose questions include this
 * one, and the composition root (surfaces.ts) passes it to surveysRoutes. NO_CAMPAIGNS_YET is the
 * default of a service assembled without campaigns (tests).
 */
export interface QuestionUsage {
  runningCampaignsAsking(tx: Queryable, questionId: number): Promise<number>;
}
export const NO_CAMPAIGNS_YET: QuestionUsage = { runningCampaignsAsking: async () => 0 };

function found<T>(value: T | null | false): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

const nameTaken = () => new ConflictError(NAME_TAKEN, [{ field: 'name', message: NAME_TAKEN }]);
/** A concurrent insert can still hit the unique index: same answer as the pre-check. */
function uniqueName(e: unknown): never {
  if (isUniqueViolation(e)) throw nameTaken();
  throw e;
}

/** The question's category must be one of the tenant's (another tenant's is invisible under RLS). Locked: positions are handed out one at a time. */
async function lockCategories(tx: Queryable, ...ids: number[]): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    if (!(await repo.lockCategory(tx, id))) throw new AppError('VALIDATION_FAILED', [{ field: 'category_id', message: SURVEY_MSG.categoryUnknown }]);
  }
}

const recordingUnknown = () => new AppError('VALIDATION_FAILED', [{ field: 'voice_audio_id', message: SURVEY_MSG.voiceAudioUnknown }]);
/** A question's recording must be one of the tenant's greetings: a 400 on the field otherwise. */
async function checkRecording(tx: Queryable, input: SurveyQuestionInput): Promise<void> {
  if (input.voice_audio_id !== null && !(await repo.greetingExists(tx, input.voice_audio_id))) throw recordingUnknown();
}
/** The file deleted between the check and the write: the foreign key refuses it, the same 400 (categories are locked). */
function recordingGone(e: unknown): never {
  if (isForeignKeyViolation(e) && violationText(e).includes('survey_questions_voice_audio_fk')) throw recordingUnknown();
  throw e;
}

/** Categories and questions; every call is one transaction under the caller's tenant, so a refusal writes nothing. */
export function createSurveysService(db: Db, usage: QuestionUsage = NO_CAMPAIGNS_YET) {
  const question = (tx: Queryable, id: number) => repo.getQuestion(tx, id).then(found);
  return {
    async listCategories(tenantId: number, q: SurveyCategoryListQuery): Promise<Paged<SurveyCategory>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listCategories(tx, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    categoryOptions: (tenantId: number) => db.withTenant(tenantId, repo.categoryOptions),
    getCategory: async (tenantId: number, id: number) => found(await db.withTenant(tenantId, (tx) => repo.getCategory(tx, id))),
    createCategory: (tenantId: number, input: SurveyCategoryInput) =>
      db
        .withTenant(tenantId, async (tx) => {
          if (await repo.categoryNameTaken(tx, input.name, 0)) throw nameTaken();
          return found(await repo.getCategory(tx, await repo.insertCategory(tx, tenantId, input)));
        })
        .catch(uniqueName),
    updateCategory: (tenantId: number, id: number, input: SurveyCategoryInput) =>
      db
        .withTenant(tenantId, async (tx) => {
          found(await repo.getCategory(tx, id));
          if (await repo.categoryNameTaken(tx, input.name, id)) throw nameTaken();
          await repo.updateCategory(tx, id, input);
          return found(await repo.getCategory(tx, id));
        })
        .catch(uniqueName),
    async removeCategory(tenantId: number, id: number): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        const category = found(await repo.getCategory(tx, id));
        if (category.question_count) throw new ConflictError(SURVEY_MSG.categoryHasQuestions(category.question_count));
        await repo.deleteCategory(tx, id);
      });
    },

    async listQuestions(tenantId: number, q: SurveyQuestionListQuery): Promise<Paged<SurveyQuestion>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listQuestions(tx, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    getQuestion: (tenantId: number, id: number) => db.withTenant(tenantId, (tx) => question(tx, id)),
    /** The greetings the question form offers as a recording. */
    audioOptions: (tenantId: number) => db.withTenant(tenantId, repo.audioOptions),
    createQuestion: (tenantId: number, input: SurveyQuestionInput) =>
      db
        .withTenant(tenantId, async (tx) => {
          await checkRecording(tx, input);
          await lockCategories(tx, input.category_id);
          return question(tx, await repo.insertQuestion(tx, tenantId, input));
        })
        .catch(recordingGone),
    /** Answers already saved keep the question as asked (their own copy), so an edit only makes a new version. */
    updateQuestion: (tenantId: number, id: number, input: SurveyQuestionInput) =>
      db
        .withTenant(tenantId, async (tx) => {
          const before = await question(tx, id);
          await checkRecording(tx, input);
          await lockCategories(tx, before.category_id, input.category_id);
          await repo.updateQuestion(tx, await question(tx, id), input);
          return question(tx, id);
        })
        .catch(recordingGone),
    async removeQuestion(tenantId: number, id: number): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        const before = await question(tx, id);
        if (await usage.runningCampaignsAsking(tx, id)) throw new ConflictError(SURVEY_MSG.questionInUse);
        await lockCategories(tx, before.category_id);
        await repo.deleteQuestion(tx, await question(tx, id));
      });
    },
    /** Up or down within its category; already first (last) stays where it is. */
    moveQuestion: (tenantId: number, id: number, direction: 'up' | 'down') =>
      db.withTenant(tenantId, async (tx) => {
        await lockCategories(tx, (await question(tx, id)).category_id);
        await repo.moveQuestion(tx, await question(tx, id), direction);
        return question(tx, id);
      }),
  };
}
