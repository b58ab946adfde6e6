import type { PbxConfig } from '@tongdai/contracts';
import type { PlanStep, RoutingPlan } from './types';

/**
 * Post-call CSAT (issue 34, ADR 0056): who asks a caller to rate the call. One media worker per call
 * asks — the one nearest the caller whose leg to a person the setting covers: a queue's for its agents'
 * legs, an inbound route's for the leg to the extension (or the number outside) it sends the caller to.
 */

/**
 * The inbound route a call from outside came in through asks its callers (`pbx_inbounds.csat`). Calls
 * an extension places to one of the tenant's own numbers (internal) are never rated.
 */
export function routeAsksCsat(config: PbxConfig, plan: RoutingPlan): boolean {
  if (plan.direction !== 'inbound') return false;
  const node = plan.route.find((n) => n.type === 'inbound');
  return !!node && config.inbounds.some((r) => String(r.id) === node.id && r.csat === true);
}

/** The queue of a queue step asks its callers itself (`pbx_queues.csat`). */
export function queueAsksCsat(config: PbxConfig, step: Pick<PlanStep, 'kind'> & { queueId?: number }): boolean {
  return step.kind === 'queue' && config.queues.some((q) => q.id === step.queueId && q.csat === true);
}
