export * from './kamailio.mjs';
export * from './media.mjs';
