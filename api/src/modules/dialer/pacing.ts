/**
 * The predictive dialer's pacing (issue 34, ADR 0054): how many calls to place now, as a pure
 * function of what the campaign's floor looks like and what its calls have shown so far — no
 * network, no clock of its own (like the routing engine), so it is tested and simulated without calls.
 *
 * The idea: a call added now is abandoned (answered, and no agent free within ABANDON_AFTER_S) when,
 * by the time it answers plus those 2 s, fewer agents have come free than calls answered ahead of it
 * (first come, first served). Both counts are sums of independent chances: each ringing call's chance
 * to answer by then (from its age and the observed answer rate and answer delays), each talking agent's
 * chance to finish by then (from the time they have talked already, against a log-normal fitted to
 * the talk times observed). Calls are added one at a time while the next one's chance of being
 * abandoned stays under a threshold; the threshold tightens as the campaign's own abandon rate nears
 * its cap, so the rate measured over its answered calls stays under the cap.
 *
 * Every time is in seconds.
 */

/** An answered call with no agent free within this long hears the "we will call you back" message. */
export const ABANDON_AFTER_S = 2;

/** What the campaign's calls have shown so far (the estimates come from these alone: no true values). */
export interface Observed {
  /** Dials whose outcome is known (answered, or released unanswered). */
  dials: number;
  /** Of those, answered. */
  answered: number;
  /** Answer delays of answered dials, a recent window (seconds from the dial to the answer). */
  answerDelays: readonly number[];
  /** How long unanswered dials rang before they were released, a recent window. */
  ringTimes: readonly number[];
  /** Talk times of calls that ended, a recent window. */
  talkTimes: readonly number[];
  /** How long each call still talking has lasted so far (censored: longer than that). */
  talking?: readonly number[];
}

/** The model the pacing uses, fitted from Observed. */
export interface Estimates {
  answerRate: number;
  /** Answer delays, sorted (the empirical distribution). */
  delays: number[];
  /** A call still ringing after this long will not answer (it is released). */
  noAnswerAfter: number;
  /** Log-normal talk time: mean and standard deviation of its logarithm. */
  talkMu: number;
  talkSigma: number;
  /** Enough seen to dial ahead of the agents; until then one call per free agent. */
  warm: boolean;
}

/** The floor now. */
export interface Floor {
  /** Agents of the campaign free for a call now. */
  free: number;
  /** Per agent in a call: how long they have talked. */
  talking: readonly number[];
  /** Per agent in wrap-up: how long until they are free. */
  wrapping: readonly number[];
  /** Per call placed and not answered yet: its age. */
  ringing: readonly number[];
  /** Answered calls waiting for an agent now (each within its 2 s). */
  waiting: number;
}

export interface Policy {
  /** The campaign's abandon cap over its answered calls (default 3 %). */
  abandonCap: number;
  /** At most this many calls ringing per agent of the campaign. */
  maxRatio: number;
  /** Wrap-up after each call (known from the campaign's setting). */
  wrapUp: number;
}

export const DEFAULT_POLICY: Policy = { abandonCap: 0.03, maxRatio: 3, wrapUp: 0 };

/** The campaign so far: its answered and abandoned calls. */
export interface Totals {
  answered: number;
  abandoned: number;
}

/** Dials and talks seen before the pacing dials ahead of its agents. */
export const WARM_UP = { answered: 30, talks: 30 };
/** Points of the answer-delay distribution a new call is judged at. */
const GRID = 8;

/** The fraction of the campaign's cap the pacing aims at (a run's rate varies around its aim). */
export const AIM = 0.9;
/**
 * How fast the threshold answers the campaign's abandons against its aim: e-fold per this many
 * abandoned calls over (or under) what the aim allows so far (tuned on the simulation, ADR 0054).
 */
export const STEER = 4;
/** Abandons the cap must still allow before the threshold stops shrinking toward none. */
export const ROOM = 3;

// --- the model -------------------------------------------------------------------------------------

/** The estimates from what was observed: an answer rate (with a weak prior), the delays as seen, a log-normal talk time. */
export function estimate(o: Observed): Estimates {
  // A weak prior (2 of 10 dials answered) only keeps the first minutes' rate off 0 and 1.
  const answerRate = (o.answered + 2) / (o.dials + 10);
  const delays = o.answerDelays.length ? [...o.answerDelays].sort((a, b) => a - b) : [5, 10, 20];
  const noAnswerAfter = o.ringTimes.length ? median(o.ringTimes) : 30;
  // Log-normal by the moments of the logarithms, with a prior worth 5 calls of about 2 min (σ 0.8).
  const logs = o.talkTimes.filter((t) => t > 0).map(Math.log);
  const priorN = 5;
  const priorMu = Math.log(120);
  const priorVar = 0.8 ** 2;
  const n = logs.length + priorN;
  let mu = (logs.reduce((s, x) => s + x, 0) + priorN * priorMu) / n;
  let sigma = Math.sqrt((logs.reduce((s, x) => s + (x - mu) ** 2, 0) + priorN * (priorVar + (priorMu - mu) ** 2)) / n);
  // The calls still talking say their talk is longer than they have lasted: early in a campaign the
  // calls that ended are the short ones, and a fit of those alone thinks agents come free sooner than
  // they do. Kaplan–Meier over both: μ = ln(its median) once it reaches it, σ = ln(q84 / median) once
  // it reaches its 84th percentile (else the moments' σ).
  const km = o.talking?.length && o.talkTimes.length >= 10 ? survivalQuantiles(o.talkTimes, o.talking) : null;
  if (km) {
    mu = Math.log(km.median);
    if (km.q84) sigma = Math.log(km.q84 / km.median);
  }
  return {
    answerRate, delays, noAnswerAfter, talkMu: mu, talkSigma: Math.max(0.1, sigma),
    warm: o.answered >= WARM_UP.answered && o.talkTimes.length >= WARM_UP.talks,
  };
}

/**
 * The talk time's median and 84th percentile by Kaplan–Meier (ended calls, and calls still talking as
 * censored): null where the survival never falls to a half, q84 null where it never falls to 0.1587.
 */
function survivalQuantiles(ended: readonly number[], talking: readonly number[]): { median: number; q84: number | null } | null {
  const obs = [...ended.map((t) => [t, 1] as const), ...talking.map((t) => [t, 0] as const)].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let atRisk = obs.length;
  let survival = 1;
  let median = 0;
  for (const [t, ended_] of obs) {
    if (ended_) survival *= 1 - 1 / atRisk;
    atRisk--;
    if (!median && survival <= 0.5) median = t;
    if (median && survival <= 0.1587) return { median, q84: t > median ? t : null };
  }
  return median ? { median, q84: null } : null;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The share of `sorted` at or below x. */
function cdf(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo / sorted.length;
}

/** Φ, the standard normal CDF (Abramowitz–Stegun 7.1.26 through erf; error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

const talkCdf = (e: Estimates, t: number) => (t <= 0 ? 0 : normalCdf((Math.log(t) - e.talkMu) / e.talkSigma));

/** The chance an agent who has talked `elapsed` is free within `t` (their call ends, then the wrap-up). */
export function freeWithin(e: Estimates, elapsed: number, t: number, wrapUp: number): number {
  const end = elapsed + t - wrapUp;
  if (end <= elapsed) return 0;
  const over = 1 - talkCdf(e, elapsed);
  if (over <= 1e-12) return 1;
  return Math.min(1, Math.max(0, (talkCdf(e, end) - talkCdf(e, elapsed)) / over));
}

/** The chance a call ringing for `age` answers within the next `t`. */
export function answersWithin(e: Estimates, age: number, t: number): number {
  if (age >= e.noAnswerAfter) return 0;
  const p = e.answerRate;
  const later = p * (1 - cdf(e.delays, age));
  const denominator = later + (1 - p);
  if (denominator <= 0 || later <= 0) return 0;
  return (p * (cdf(e.delays, age + t) - cdf(e.delays, age))) / denominator;
}

/** The distribution of a sum of independent Bernoulli trials (Poisson-binomial), by convolution in place. */
function sumOf(ps: readonly number[], extra = 0): Float64Array {
  const dist = new Float64Array(ps.length + 1 + extra);
  dist[0] = 1;
  let n = 0;
  for (const p of ps) {
    if (p <= 1e-9) continue;
    n++;
    for (let k = n; k > 0; k--) dist[k] = dist[k] * (1 - p) + dist[k - 1] * p;
    dist[0] *= 1 - p;
  }
  return dist;
}

/** `dist` with one more Bernoulli(p) trial (in place: its last cell must be free). */
function addTrial(dist: Float64Array, used: number, p: number): void {
  for (let k = used; k > 0; k--) dist[k] = dist[k] * (1 - p) + dist[k - 1] * p;
  dist[0] *= 1 - p;
}

/** P(ahead − freed ≥ free): the call is served after `ahead` answered calls, with `free` + `freed` agents. */
function shortfall(ahead: Float64Array, freed: Float64Array, free: number): number {
  // cumulative of freed
  const cum = new Float64Array(freed.length);
  let s = 0;
  for (let k = 0; k < freed.length; k++) cum[k] = s += freed[k];
  let p = 0;
  for (let x = 0; x < ahead.length; x++) {
    const y = x - free; // abandoned when freed ≤ y
    if (y < 0) continue;
    p += ahead[x] * (y >= cum.length ? 1 : cum[y]);
  }
  return Math.min(1, p);
}

// --- the decision ----------------------------------------------------------------------------------

export interface Decision {
  /** Calls to place now. */
  dial: number;
  /** The chance the last call placed is abandoned if it answers (0 when none is placed). */
  risk: number;
  /** The threshold that call was held to. */
  threshold: number;
}

/**
 * The chance of being abandoned the next call may carry: the aim (which the simulation shows the
 * campaign's rate then ends near), steered by the campaign's own abandons so far against what the aim
 * allows over its answered calls — e times lower per STEER abandons too many, higher when under (at
 * most 3 times the aim, at least an eighth of it) — and shrinking to none as the abandons near what
 * the cap itself allows (fewer than ROOM left): a short campaign, whose few answered calls make its
 * rate jump, does not cross its cap (an hour's run at 30 % answering crossed 2 % without this; at 10 %
 * answering an hour's run still may, slightly: ADR 0054).
 */
export function threshold(totals: Totals, policy: Policy): number {
  const aim = policy.abandonCap * AIM;
  const over = totals.abandoned - aim * totals.answered;
  const room = policy.abandonCap * totals.answered - totals.abandoned;
  return aim * Math.min(3, Math.max(1 / 8, Math.exp(-over / STEER))) * Math.min(1, Math.max(0, room) / ROOM);
}

/** How many calls to place now (ADR 0054). */
export function pace(floor: Floor, e: Estimates, totals: Totals, policy: Policy = DEFAULT_POLICY): Decision {
  const agents = floor.free + floor.talking.length + floor.wrapping.length;
  const maxRinging = Math.floor(policy.maxRatio * agents);
  const room = maxRinging - floor.ringing.length;
  if (agents === 0 || room <= 0) return { dial: 0, risk: 0, threshold: 0 };
  // Until enough is seen: one call per free agent not already covered by a call ringing or waiting.
  if (!e.warm) {
    const dial = Math.max(0, Math.min(room, floor.free - floor.waiting - floor.ringing.length));
    return { dial, risk: 0, threshold: 0 };
  }
  // The points of the answer-delay distribution a new call is judged at (equal weights).
  const grid = Array.from({ length: GRID }, (_, k) => e.delays[Math.min(e.delays.length - 1, Math.floor(((k + 0.5) / GRID) * e.delays.length))]);
  // Per point: the answered calls ahead of a new one (room left for the calls this round adds).
  const ahead = grid.map((a) => {
    const dist = sumOf(floor.ringing.map((age) => answersWithin(e, age, a)), room + floor.waiting);
    // Answered calls waiting now are served before it, whatever happens.
    if (floor.waiting) dist.copyWithin(floor.waiting, 0, dist.length - floor.waiting).fill(0, 0, floor.waiting);
    return dist;
  });
  let used = floor.ringing.length + floor.waiting;
  // Per point: the agents come free by its answer and the 2 s after.
  const freed = grid.map((a) => sumOf([
    ...floor.talking.map((elapsed) => freeWithin(e, elapsed, a + ABANDON_AFTER_S, policy.wrapUp)),
    ...floor.wrapping.map((left) => (left <= a + ABANDON_AFTER_S ? 1 : 0)),
  ]));
  const riskNow = () => {
    let r = 0;
    for (let k = 0; k < GRID; k++) r += shortfall(ahead[k], freed[k], floor.free) / GRID;
    return r;
  };
  const limit = threshold(totals, policy);
  let dial = 0;
  let risk = 0;
  while (dial < room) {
    const r = riskNow();
    // A call for a free agent no ringing call is expected to take is placed whatever the threshold.
    if (r > limit && !(dial + floor.ringing.length + floor.waiting < floor.free)) break;
    dial++;
    risk = r;
    // The call just placed rings ahead of the next one.
    used++;
    for (let k = 0; k < GRID; k++) addTrial(ahead[k], used, e.answerRate * cdf(e.delays, grid[k]));
  }
  return { dial, risk, threshold: limit };
}
