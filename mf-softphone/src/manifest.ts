import { defineRemoteManifest } from '@tongdai/platform';

/** The softphone: persistent on every screen but /login and /signup. */
export default defineRemoteManifest({
  id: 'mf_softphone',
  title: 'Điện thoại',
  routes: [],
  nav: [],
  persistent: true,
  lifecycles: () => import('./app'),
});
