/**
 * What other modules may ask of the cdr module (they never import its repositories): the writer
 * the call wiring feeds, the agent who last answered a caller (the last-call destination), a post-call
 * CSAT score for a call already recorded (the media routes), and the
 * tenant's records as reports read them (filtered, keyset or numbered pages).
 */
export { CdrWriter, lastAnsweringAgent, rateRecordedCall, type RecordedRating } from './cdr.repository';
export {
  conditions as cdrConditions, listTenantCdrLines, oddLegCorrection, listTenantCdrs, pageTenantCdrs, type CdrFilter, type CdrLine, type CdrRangeQuery, type CdrRecord, type LineKey,
} from './cdr-read.repository';
