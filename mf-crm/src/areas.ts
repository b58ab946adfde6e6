import type { NavEntry, RouteDef } from '@tongdai/platform';
import { accountsNav, accountsRoutes } from './accounts/accounts.routes';
import { customerNav, customerRoutes } from './customers/customers.routes';
import { integrationsNav, integrationsRoutes } from './integrations/integrations.routes';
import { orgNav, orgRoutes } from './org/org.routes';
import { rolesNav, rolesRoutes } from './roles/roles.routes';

/** mf-crm: customers and the organisation. Each area declares its own routes and navigation. */
export const routes: RouteDef[] = [...customerRoutes, ...rolesRoutes, ...accountsRoutes, ...orgRoutes, ...integrationsRoutes];
export const nav = (): NavEntry[] => [...customerNav(), ...rolesNav(), ...accountsNav(), ...orgNav(), ...integrationsNav()];
