import { resolve } from 'node:path';

export type CallChainLib = typeof import('../../scripts/lib/call-chain.mjs');

/**
 * A native import() for scripts/lib's ES modules (swc's CommonJS output cannot require them),
 * compiled afresh for each test file. V8 caches `new Function` by its source text, and a cached
 * function keeps the dynamic-import callback of the test file that compiled it first: in a worker
 * that had already run another suite with the same source, import() went to that torn-down
 * environment ("You are trying to `import` a file after the Jest environment has been torn down",
 * then jest-runtime's "Cannot read properties of undefined (reading 'identifier')"). A nonce in the
 * source makes every file compile its own.
 */
const importEsm = new Function('p', `return import(p); // ${process.pid}-${Date.now()}-${Math.random()}`) as <T>(p: string) => Promise<T>;

/**
 * scripts/lib's Kamailio and media helpers for the suites that run the real SIP chain, in one
 * import() (scripts/lib/call-chain.mjs: two at once raced in jest-runtime's registry).
 */
const chain = importEsm<CallChainLib>(resolve(__dirname, '../../scripts/lib/call-chain.mjs'));
// Awaited by the suites; a failure surfaces there, not as an unhandled rejection.
chain.catch(() => undefined);

export const kamailioLib = (): Promise<CallChainLib> => chain;
export const mediaLib = (): Promise<CallChainLib> => chain;
