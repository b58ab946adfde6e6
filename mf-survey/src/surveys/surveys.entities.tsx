import { Badge } from '@fluentui/react-components';
import {
  FEATURES, PERM, SURVEY_API, SURVEY_KIND_LABELS, SurveyCategoryInputSchema, SurveyQuestionInputSchema, isChoiceKind, isVoiceKind, paths,
  type SurveyCategory, type SurveyQuestion,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, selectFilter, type PermSet } from '@tongdai/ui';
import { NS } from '../i18n';
import { SCOPE, useCategoryOptions } from './survey.api';
import './fieldKinds';

/** survey.view reads; survey.edit adds, edits, orders and deletes. */
const permission: PermSet = { view: PERM.survey.view, create: PERM.survey.edit, edit: PERM.survey.edit, delete: PERM.survey.edit };
const feature = FEATURES.survey;
const resource = (name: string, base: string) => crudResource({ scope: SCOPE, name, base, client: tenantApi });

/** /survey/categories: name, description, active; add and edit in a dialog on the list. */
export const category = defineEntity<SurveyCategory>({
  key: 'survey-category', ns: NS, prefix: 'category', paths: paths.surveyCategory, permission, feature,
  schema: SurveyCategoryInputSchema,
  fields: [{ name: 'name', kind: 'text', required: true }, { name: 'active', kind: 'switch' }, { name: 'description', kind: 'textarea' }],
  columns: [
    { key: 'name', header: 'name', render: (r) => <span data-testid="row-name">{r.name}</span> },
    { key: 'description', header: 'description', render: (r) => r.description || '—' },
    // As a string: a bare 0 is dropped by the table cell's slot.
    { key: 'questions', header: 'question_count', render: (r) => String(r.question_count), width: '110px' },
    { key: 'active', header: 'active', width: '140px', render: (r, { t }) => <Badge appearance="tint" color={r.active ? 'success' : 'informative'}>{t(r.active ? 'active' : 'inactive')}</Badge> },
  ],
  api: resource('categories', SURVEY_API.categories),
  rowName: (r) => r.name,
});

/** The list's filter by category (?category_id=): the order and the preview are a category's. */
export const categoryFilter = selectFilter({
  key: 'category_id', ns: NS, label: 'fields.category_id', all: 'question.allCategories', testId: 'filter-category',
  useOptions: () => (useCategoryOptions().data ?? []).map((c) => ({ value: c.id, label: c.name })),
});

/**
 * /survey/question: the question, its kind, options for the choice kinds, the recording an automated voice survey
 * plays for the kinds it asks (none: it reads the text), required; the preview as the agent sees it.
 */
export const question = defineEntity<SurveyQuestion>({
  key: 'survey-question', ns: NS, prefix: 'question', paths: paths.surveyQuestion, permission, feature,
  schema: SurveyQuestionInputSchema,
  fields: [
    { name: 'category_id', kind: 'surveyCategory', required: true },
    { name: 'kind', kind: 'choice', options: SURVEY_KIND_LABELS, required: true },
    { name: 'text', kind: 'textarea', required: true },
    { name: 'options', kind: 'surveyOptions', when: (d) => isChoiceKind(d.kind) },
    { name: 'voice_audio_id', kind: 'surveyAudio', hint: true, when: (d) => isVoiceKind(d.kind) },
    { name: 'required', kind: 'switch', states: 'onOff' },
    { name: 'preview', kind: 'questionPreview' },
  ],
  columns: [
    { key: 'position', header: 'position', width: '70px', render: (r) => String(r.position) },
    { key: 'text', header: 'text', render: (r) => <span data-testid="row-name" title={r.text}>{r.text}</span> },
    { key: 'kind', header: 'kind', width: '120px', render: (r) => SURVEY_KIND_LABELS[r.kind] },
    { key: 'category', header: 'category_id', width: '150px', render: (r) => <span title={r.category_name}>{r.category_name}</span> },
    { key: 'required', header: 'required', width: '100px', render: (r, { t }) => (r.required ? t('question.requiredMark') : '—') },
  ],
  api: resource('questions', SURVEY_API.questions),
  rowName: (r) => r.text,
  filters: [categoryFilter],
});
