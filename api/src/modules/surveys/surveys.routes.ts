import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  FEATURES, PERM, SURVEY_API, SurveyCategoryInputSchema, SurveyCategoryListQuerySchema, SurveyMoveSchema, SurveyQuestionInputSchema,
  SurveyQuestionListQuerySchema, type SurveyCategoryInput, type SurveyCategoryListQuery, type SurveyMove, type SurveyQuestionInput,
  type SurveyQuestionListQuery,
} from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { createSurveysService, type QuestionUsage } from './surveys.service';

const schema = { tags: ['tenant: surveys'], security: [{ bearer: [] }] };
const tid = (request: FastifyRequest) => authOf(request).tenantId;
const gate = (permission: string) => guarded(permission, FEATURES.survey);

/**
 * Tenant surface: survey categories and questions (issue 33), behind the purchased "survey" feature;
 * survey.view reads, survey.edit writes. `usage` answers whether a running campaign asks a question.
 */
export function surveysRoutes(usage?: QuestionUsage) {
  return async function surveys(app: FastifyInstance): Promise<void> {
    const svc = createSurveysService(app.deps.db, usage);
    const categories = `/${SURVEY_API.categories}`;
    const questions = `/${SURVEY_API.questions}`;
    const view = gate(PERM.survey.view);
    const edit = gate(PERM.survey.edit);

    app.get(categories, { preHandler: [...view, validate({ query: SurveyCategoryListQuerySchema })], schema }, (request) =>
      svc.listCategories(tid(request), request.query as SurveyCategoryListQuery),
    );
    app.get(`/${SURVEY_API.categoryOptions}`, { preHandler: view, schema }, async (request) => ({ data: await svc.categoryOptions(tid(request)) }));
    app.post(categories, { preHandler: [...edit, validate({ body: SurveyCategoryInputSchema })], schema }, async (request, reply) =>
      reply.status(201).send({ data: await svc.createCategory(tid(request), request.body as SurveyCategoryInput) }),
    );
    app.get(`${categories}/:id`, { preHandler: view, schema }, async (request) => ({ data: await svc.getCategory(tid(request), idOf(request.params)) }));
    app.put(`${categories}/:id`, { preHandler: [...edit, validate({ body: SurveyCategoryInputSchema })], schema }, async (request) => ({
      data: await svc.updateCategory(tid(request), idOf(request.params), request.body as SurveyCategoryInput),
    }));
    app.delete(`${categories}/:id`, { preHandler: edit, schema }, async (request, reply) => {
      await svc.removeCategory(tid(request), idOf(request.params));
      return reply.status(204).send();
    });

    app.get(questions, { preHandler: [...view, validate({ query: SurveyQuestionListQuerySchema })], schema }, (request) =>
      svc.listQuestions(tid(request), request.query as SurveyQuestionListQuery),
    );
    app.post(questions, { preHandler: [...edit, validate({ body: SurveyQuestionInputSchema })], schema }, async (request, reply) =>
      reply.status(201).send({ data: await svc.createQuestion(tid(request), request.body as SurveyQuestionInput) }),
    );
    app.get(`/${SURVEY_API.audioOptions}`, { preHandler: view, schema }, async (request) => ({ data: await svc.audioOptions(tid(request)) }));
    app.get(`${questions}/:id`, { preHandler: view, schema }, async (request) => ({ data: await svc.getQuestion(tid(request), idOf(request.params)) }));
    app.put(`${questions}/:id`, { preHandler: [...edit, validate({ body: SurveyQuestionInputSchema })], schema }, async (request) => ({
      data: await svc.updateQuestion(tid(request), idOf(request.params), request.body as SurveyQuestionInput),
    }));
    app.post(`${questions}/:id/move`, { preHandler: [...edit, validate({ body: SurveyMoveSchema })], schema }, async (request) => ({
      data: await svc.moveQuestion(tid(request), idOf(request.params), (request.body as SurveyMove).direction),
    }));
    app.delete(`${questions}/:id`, { preHandler: edit, schema }, async (request, reply) => {
      await svc.removeQuestion(tid(request), idOf(request.params));
      return reply.status(204).send();
    });
  };
}
