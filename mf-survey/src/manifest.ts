import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';
import { surveyNav, surveyRoutes } from './surveys/surveys.routes';

/** mf-survey: survey categories and questions (issue 33); campaigns and the agent's screen follow. */
export default defineRemoteManifest({
  id: 'mf_survey',
  title: i18n.t('area', { ns: NS }),
  routes: surveyRoutes,
  nav: surveyNav(),
  lifecycles: () => import('./app'),
});
