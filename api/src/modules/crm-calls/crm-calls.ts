import {
  CRM_CALL_LIMITS, cleanNumber, INTERNATIONAL_PREFIXES, phoneKind, significantNumber, storedForm,
  type CrmCallCause, type CrmCallOutcome, type CrmCallRefusal, type CrmCallStatus,
} from '@tongdai/contracts';

/**
 * Click-to-call's decisions (issue 39, ADR 0066), pure functions of what they are given: the number a
 * CRM may ask for, whether the agent can take a call now, what the outbound plan's refusal means to the
 * CRM, and how each report of the worker moves the call on.
 */

/** The customer's number as stored (84…), or why it cannot be called: the voice-OTP rules (abroad off, 1800/1900 off). */
export function customerNumber(to: string): { number: string } | { refusal: CrmCallRefusal } {
  const c = cleanNumber(to);
  const vn = significantNumber(c);
  if (vn === null && INTERNATIONAL_PREFIXES.some((p) => c.startsWith(p)) && /^\+?\d{6,}$/.test(c)) return { refusal: 'international' };
  if (vn === null) return { refusal: 'invalid_number' };
  if (phoneKind(c) === 'service') return { refusal: 'not_callable' };
  return { number: storedForm(c) };
}

/** What is known of the agent when a call is asked for. */
export interface AgentNow {
  /** The extension is one of the tenant's. */
  known: boolean;
  /** A phone is registered to it now. */
  registered: boolean;
  /** It is in a call now (ringing, talking, placing one), or a click-to-call of it is under way. */
  busy: boolean;
}

/** Why the agent cannot be rung now, or null: unknown first (422), then no phone, then busy (409). */
export function agentRefusal(a: AgentNow): CrmCallRefusal | null {
  if (!a.known) return 'unknown_agent';
  if (!a.registered) return 'agent_not_registered';
  if (a.busy) return 'agent_busy';
  return null;
}

/** The routing engine's refusal of an outbound call (outbound.ts RejectStep reasons) as the CRM's rule. */
export function routeRefusal(reason: string): CrmCallRefusal {
  switch (reason) {
    case 'blocked_out':
    case 'international':
    case 'premium':
      return reason;
    default:
      return 'no_route';
  }
}

/** The key's calls in the last minute against its limit: 429 at the limit. */
export const overMinuteLimit = (lastMinute: number): boolean => lastMinute >= CRM_CALL_LIMITS.perKeyMinute;

export interface CallMove {
  status: CrmCallStatus;
  cause: CrmCallCause | null;
}

const failed = (cause: CrmCallCause): CallMove => ({ status: 'failed', cause });

/**
 * How a worker's report moves a call, or null when it changes nothing: a report sent again (its answer
 * was lost), late (the sweep ended the call), or out of order. Completed and failed are final.
 */
export function afterReport(status: CrmCallStatus, outcome: CrmCallOutcome): CallMove | null {
  const agentLeg = status === 'ringing_agent';
  const customerLeg = status === 'agent_answered' || status === 'ringing_customer';
  switch (outcome) {
    case 'agent_answered':
      return agentLeg ? { status: 'agent_answered', cause: null } : null;
    case 'agent_no_answer':
      return agentLeg ? failed('agent_no_answer') : null;
    case 'agent_busy':
      return agentLeg ? failed('agent_busy') : null;
    case 'agent_failed':
      return agentLeg ? failed('failed') : null;
    case 'agent_hung_up':
      return customerLeg ? failed('agent_hung_up') : null;
    case 'answered':
      return customerLeg ? { status: 'answered', cause: null } : null;
    case 'customer_no_answer':
      return customerLeg ? failed('customer_no_answer') : null;
    case 'customer_busy':
      return customerLeg ? failed('customer_busy') : null;
    case 'customer_failed':
      return customerLeg ? failed('customer_failed') : null;
    case 'completed':
      return status === 'answered' ? { status: 'completed', cause: null } : null;
  }
}

/**
 * Whether a call in progress is lost at `now` (no worker took it, or none reported on it): queued past
 * queuedMaxS, ringing or being connected past lostS since its last change, answered past answeredMaxS.
 * The sweep's SQL (crm-calls.repository failLost) says the same.
 */
export function isLost(status: CrmCallStatus, updatedAt: Date, now: Date): boolean {
  const age = (now.getTime() - updatedAt.getTime()) / 1000;
  if (status === 'queued') return age > CRM_CALL_LIMITS.queuedMaxS;
  if (status === 'answered') return age > CRM_CALL_LIMITS.answeredMaxS;
  if (status === 'completed' || status === 'failed') return false;
  return age > CRM_CALL_LIMITS.lostS;
}
