/**
 * What other modules may ask of the tenants module (they never import its repository): the tenant
 * behind a company code (login, signup, the site's public logo, shop keys) and the caller's own.
 */
export { currentTenant, findTenantByMaDn, type TenantRow } from './tenants.repository';
