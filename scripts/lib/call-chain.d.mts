export * from './kamailio.mjs';
export * from './media.mjs';
export { startStack, sipPorts } from './stack.mjs';
