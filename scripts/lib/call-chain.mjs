// The real call chain's helpers in one module (Kamailio, the media worker, the whole stack), for the API's Jest
// suites: one native import() loads both (api/test/script-libs.ts). Two import() calls at once
// raced in jest-runtime's module registry ("request for 'node:child_process' is not in cache").
export * from './kamailio.mjs';
export * from './media.mjs';
export { startStack, sipPorts, supervised } from './stack.mjs';
