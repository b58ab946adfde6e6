/**
 * What other modules may ask of the cdr module (they never import its repositories): the writer
 * the call wiring feeds, and the agent who last answered a caller (the last-call destination).
 */
export { CdrWriter, lastAnsweringAgent } from './cdr.repository';
