import { defineRemoteManifest, i18n } from '@tongdai/platform';
import { NS } from './i18n';
import { accountsNav, accountsRoutes } from './accounts/accounts.routes';
import { customerNav, customerRoutes } from './customers/customers.routes';
import { orgNav, orgRoutes } from './org/org.routes';
import { rolesNav, rolesRoutes } from './roles/roles.routes';

/** mf-crm: customers and the organisation. Each area declares its own routes and navigation. */
export default defineRemoteManifest({
  id: 'mf_crm',
  title: i18n.t('area', { ns: NS }),
  routes: [...customerRoutes, ...rolesRoutes, ...accountsRoutes, ...orgRoutes],
  nav: [...customerNav(), ...rolesNav(), ...accountsNav(), ...orgNav()],
  lifecycles: () => import('./app'),
});
