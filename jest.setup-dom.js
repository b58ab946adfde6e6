// jsdom lacks these; react-router 7 and Fluent need them.
const { TextEncoder, TextDecoder } = require('node:util');
Object.assign(globalThis, { TextEncoder, TextDecoder });
if (typeof performance !== 'undefined' && !performance.mark) performance.mark = () => undefined;
