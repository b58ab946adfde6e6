import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';
import { nav, routes } from './areas';

export default defineRemoteManifest({
  id: 'mf_crm',
  title: i18n.t('area', { ns: NS }),
  routes,
  nav: nav(),
  lifecycles: () => import('./app'),
});
