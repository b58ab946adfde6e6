/**
 * What the page needs before a login, by name (issue 38, ADR 0002): the platform and the host's
 * login path import these from `@tongdai/contracts/lean`, which is bundled where it is used and
 * tree-shaken, instead of the shared `@tongdai/contracts` — a shared module is never tree-shaken, and
 * the whole of it (every screen's messages and schemas, ~37 KB gzip) loaded at /login. They are
 * constants and pure functions: a second copy has no state to split. Screens after the login keep
 * importing `@tongdai/contracts`.
 */
export { ERROR_CODES, isApiErrorBody } from './src/errors';
export { INITIAL_CALL_STATE } from './src/call-states';
export { MONITOR_API } from './src/monitor';
export { catchUp, includesEvent, needsSnapshot } from './src/monitor-live';
export { MSG } from './src/messages';
export { REALTIME_PROTOCOL, SESSION_ENDED_CLOSE } from './src/realtime';
export { REFRESHED_TOKEN_HEADER, STORAGE_KEYS } from './src/constants';
export { dialogPaths, pagePaths, routes } from './src/routes';
export { hasPermission, isFeatureEnabled } from './src/permissions';
export { maskPhone } from './src/settings';
export { tenantBase } from './src/api';
