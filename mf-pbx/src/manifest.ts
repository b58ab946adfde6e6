import { defineRemoteManifest } from '@tongdai/platform';
import { subscribersNav, subscribersRoutes } from './subscribers/subscribers.routes';

/**
 * mf-pbx: the telephone exchange. Each area declares its own routes and navigation; a
 * manifest lists only screens that work, so areas arrive with their issues.
 */
export default defineRemoteManifest({
  id: 'mf_pbx',
  title: 'Tổng đài',
  routes: [...subscribersRoutes],
  nav: [...subscribersNav()],
  lifecycles: () => import('./app'),
});
