/**
 * The campaign dialer (issue 34): its pacing, a pure function of the floor and what the campaign's
 * calls showed (pacing.ts, ADR 0054), and the pinned workload it is simulated on (simulate.ts).
 */
export { ABANDON_AFTER_S, AIM, DEFAULT_POLICY, ROOM, STEER, WARM_UP, answersWithin, estimate, freeWithin, normalCdf, pace, threshold } from './pacing';
export type { Decision, Estimates, Floor, Observed, Policy, Totals } from './pacing';
export { PINNED, predictive, progressive, simulate } from './simulate';
export type { Dialer, Fate, Outcome, Workload } from './simulate';
