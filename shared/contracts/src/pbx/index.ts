/**
 * PBX configuration (mf-pbx screens, the /pbx partner API, the routing engine), by topic:
 * messages, destinations, the objects' schemas and rows, the routing snapshot, the partner API.
 */
export { PBX_MSG } from './messages';
export * from './destinations';
export * from './objects';
export * from './config';
export * from './partner-api';
export * from './holidays';
