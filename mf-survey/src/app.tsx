import { createRemoteApp } from '@tongdai/ui';
import { surveyRoutes } from './surveys/surveys.routes';

// The routes, not the manifest: the manifest loads this file lazily.
const lifecycles = createRemoteApp({ name: 'mf_survey', routes: surveyRoutes });
export const { bootstrap, mount, unmount } = lifecycles;
