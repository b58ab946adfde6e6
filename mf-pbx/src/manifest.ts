import { defineRemoteManifest } from '@tongdai/platform';
import { areas, routes } from './areas';

export default defineRemoteManifest({
  id: 'mf_pbx',
  title: 'Tổng đài',
  routes,
  nav: areas.flatMap((a) => a.nav()),
  lifecycles: () => import('./app'),
});
