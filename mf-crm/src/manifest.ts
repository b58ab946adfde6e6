import { FEATURES, PERM, routes } from '@tongdai/contracts';
import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';

const t = (k: string) => i18n.t(k, { ns: NS });
const customer = { permission: PERM.customer.view, feature: FEATURES.customer };

/** mf-crm: customers and the organisation. Lists only screens that work. */
export default defineRemoteManifest({
  id: 'mf_crm',
  title: t('area'),
  routes: [
    { path: routes.customer.list(), loader: () => import('./customers/CustomerListScreen'), ...customer },
    { path: routes.customer.add(), loader: () => import('./customers/CustomerFormScreen'), permission: PERM.customer.create, feature: FEATURES.customer },
    { path: '/customer/edit/:id', loader: () => import('./customers/CustomerFormScreen'), permission: PERM.customer.edit, feature: FEATURES.customer },
  ],
  nav: [{ label: t('nav.customers'), path: routes.customer.list(), icon: 'people', ...customer }],
  lifecycles: () => import('./app'),
});
