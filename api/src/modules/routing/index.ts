/**
 * Routing engine (issue 6): pure functions from a PbxConfig snapshot + live state to a routing
 * plan. No I/O. Plan format and decisions: README.md beside this file, docs/adr/0009-routing-engine.md.
 */
export { planCall, planPlacedCall } from './plan';
export { resolveDestination, MAX_HOPS, DIRECT_RING_SECONDS } from './expand';
export { findLoop, describeLoop, type Loop, type LoopNode } from './loops';
export { matchesTimeGroup, nextStateChange, evaluateTimeCondition, STATE_CHANGE_HORIZON_DAYS, type TimeConditionResult } from './time';
export { memoryKey, queueOrder } from './strategies';
export { compilePattern, isInternational, isPremium } from './numbers';
export { ROUTING_MSG } from './messages';
export { recordsAtWorker, recordsContinuation, extensionRecordingMode, queueRecordingMode, tenantRecordingMode } from './recording';
export { routeAsksCsat, queueAsksCsat } from './csat';
export type { ConfigExtension } from './config-index';
export type * from './types';
