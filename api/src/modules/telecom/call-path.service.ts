/**
 * What the call path reads of telecom (the PBX configuration loader, pbx/config.ts): the tenant's
 * switchboards with their active hotlines (never a password) and its channel limit. Kept apart
 * from switchboards.service so the loader imports nothing that imports the PBX back.
 */
export { switchboardRoutes, tenantMaxChannels } from './switchboards.repository';
