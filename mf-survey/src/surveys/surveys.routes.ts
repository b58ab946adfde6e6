import { FEATURES, PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

type Screens = typeof import('./screens');
/** One lazy chunk for the survey screens (they share the preview and the dropdowns). */
const screens = (name: keyof Screens) => () => import('./screens').then((m) => m[name]);
const permission = { view: PERM.survey.view, create: PERM.survey.edit, edit: PERM.survey.edit };
const feature = FEATURES.survey;

export const surveyRoutes: RouteDef[] = [
  ...crudRoutes(paths.surveyCategory, permission, screens('Categories'), feature),
  ...crudRoutes(paths.surveyQuestion, permission, screens('Questions'), feature),
];

export const surveyNav = (): NavEntry[] => [
  { label: i18n.t('category.nav', { ns: NS }), path: paths.surveyCategory.list, icon: 'tag', permission: PERM.survey.view, feature },
  { label: i18n.t('question.nav', { ns: NS }), path: paths.surveyQuestion.list, icon: 'question', permission: PERM.survey.view, feature },
];
