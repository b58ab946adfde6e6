import { CRM_CALL_LIMITS, CRM_CALL_OUTCOMES, type CrmCallStatus } from '@tongdai/contracts';
import { afterReport, agentRefusal, customerNumber, isLost, overMinuteLimit, routeRefusal } from './crm-calls';

describe("click-to-call's decisions (ADR 0066)", () => {
  it('takes the customer number in 0…, 84… and +84… form as 84…, refuses abroad, 1800/1900 and garbage', () => {
    for (const n of ['0912345678', '84912345678', '+84912345678', '091 234 5678']) expect(customerNumber(n)).toEqual({ number: '84912345678' });
    expect(customerNumber('+14155550100')).toEqual({ refusal: 'international' });
    expect(customerNumber('19001234')).toEqual({ refusal: 'not_callable' });
    expect(customerNumber('12ab')).toEqual({ refusal: 'invalid_number' });
  });

  it('refuses an unknown extension first, then one with no phone registered, then one in a call', () => {
    expect(agentRefusal({ known: false, registered: true, busy: true })).toBe('unknown_agent');
    expect(agentRefusal({ known: true, registered: false, busy: true })).toBe('agent_not_registered');
    expect(agentRefusal({ known: true, registered: true, busy: true })).toBe('agent_busy');
    expect(agentRefusal({ known: true, registered: true, busy: false })).toBeNull();
  });

  it("names the routing engine's refusals for the CRM", () => {
    expect(routeRefusal('blocked_out')).toBe('blocked_out');
    expect(routeRefusal('premium')).toBe('premium');
    expect(routeRefusal('international')).toBe('international');
    expect(routeRefusal('no_route')).toBe('no_route');
    expect(routeRefusal('anything else')).toBe('no_route');
  });

  it('limits a key to its calls per minute', () => {
    expect(overMinuteLimit(CRM_CALL_LIMITS.perKeyMinute - 1)).toBe(false);
    expect(overMinuteLimit(CRM_CALL_LIMITS.perKeyMinute)).toBe(true);
  });

  it('moves a call through agent → customer → answered → completed, each report taken once', () => {
    let status: CrmCallStatus = 'ringing_agent';
    for (const [outcome, next] of [['agent_answered', 'agent_answered'], ['answered', 'answered'], ['completed', 'completed']] as const) {
      const move = afterReport(status, outcome);
      expect(move).toEqual({ status: next, cause: null });
      status = move!.status;
    }
    // Sent again (the answer was lost), or late: nothing.
    expect(afterReport('completed', 'completed')).toBeNull();
    expect(afterReport('answered', 'agent_answered')).toBeNull();
    // The customer may answer while the API still writes ringing_customer, or after it.
    expect(afterReport('ringing_customer', 'answered')).toEqual({ status: 'answered', cause: null });
  });

  it("fails with the leg's cause: the agent's before they answer, the customer's after", () => {
    expect(afterReport('ringing_agent', 'agent_no_answer')).toEqual({ status: 'failed', cause: 'agent_no_answer' });
    expect(afterReport('ringing_agent', 'agent_busy')).toEqual({ status: 'failed', cause: 'agent_busy' });
    expect(afterReport('ringing_agent', 'agent_failed')).toEqual({ status: 'failed', cause: 'failed' });
    expect(afterReport('ringing_customer', 'customer_no_answer')).toEqual({ status: 'failed', cause: 'customer_no_answer' });
    expect(afterReport('ringing_customer', 'customer_busy')).toEqual({ status: 'failed', cause: 'customer_busy' });
    expect(afterReport('agent_answered', 'agent_hung_up')).toEqual({ status: 'failed', cause: 'agent_hung_up' });
    // A customer's outcome while the agent still rings is out of order; an agent's after they answered too.
    expect(afterReport('ringing_agent', 'customer_busy')).toBeNull();
    expect(afterReport('ringing_customer', 'agent_no_answer')).toBeNull();
    // Final states stay.
    for (const outcome of CRM_CALL_OUTCOMES) {
      expect(afterReport('failed', outcome)).toBeNull();
      expect(afterReport('completed', outcome)).toBeNull();
      expect(afterReport('queued', outcome)).toBeNull();
    }
  });

  it('sweeps a call no worker took in 30 s, one no worker reported on in 3 min, an answered one after 4 h', () => {
    const now = new Date('2026-11-29T07:00:00Z');
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    expect(isLost('queued', ago(CRM_CALL_LIMITS.queuedMaxS - 1), now)).toBe(false);
    expect(isLost('queued', ago(CRM_CALL_LIMITS.queuedMaxS + 1), now)).toBe(true);
    expect(isLost('ringing_agent', ago(CRM_CALL_LIMITS.lostS - 1), now)).toBe(false);
    expect(isLost('ringing_customer', ago(CRM_CALL_LIMITS.lostS + 1), now)).toBe(true);
    expect(isLost('answered', ago(CRM_CALL_LIMITS.lostS + 1), now)).toBe(false);
    expect(isLost('answered', ago(CRM_CALL_LIMITS.answeredMaxS + 1), now)).toBe(true);
    expect(isLost('completed', ago(1e6), now)).toBe(false);
  });
});
