export * from './kamailio.mjs';
export * from './media.mjs';
export { startStack, sipPorts, supervised } from './stack.mjs';
