import { defineRemoteManifest } from '@tongdai/platform';

/**
 * mf-pbx: its screens arrive with their issues. A manifest lists only screens that work, so
 * this one is registered (and proves the remote loads) but owns no route yet.
 */
export default defineRemoteManifest({
  id: 'mf_pbx',
  title: 'Tổng đài',
  routes: [],
  nav: [],
  lifecycles: () => import('./app'),
});
