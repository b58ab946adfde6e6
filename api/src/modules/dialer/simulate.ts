/**
 * The dialer's workload, simulated (issue 34; the workload pinned in notes/dialer.md): a shift of
 * agents, contacts whose fates are drawn from a seed (the same fates, in dial order, for every policy
 * compared; mulberry32, @tongdai/contracts' seeded source), and a pacing policy asked what to place at every event and every second. No network, no
 * clock: events in time order. What the policy is told is what a real dialer would see (the floor and
 * what its calls showed); it is never given the true rates.
 */
import { seeded } from '@tongdai/contracts';
import { ABANDON_AFTER_S, DEFAULT_POLICY, estimate, pace, type Floor, type Observed, type Policy, type Totals } from './pacing';

export interface Workload {
  agents: number;
  /** The shift (seconds); talk running past it is cut there. */
  shift: number;
  answerRate: number;
  /** Answer delay, uniform in [min, max] seconds (answered calls only). */
  answerDelay: [number, number];
  /** An unanswered call rings this long, then is released (not an abandon). */
  noAnswerAfter: number;
  /** Talk time: log-normal with this median and σ of its logarithm. */
  talkMedian: number;
  talkSigma: number;
  wrapUp: number;
  seed: number;
}

/** notes/dialer.md's workload: 20 agents, 8 h, 30 % answering after 3–15 s, 25 s unanswered, talk median 90 s σ 0.5. */
export const PINNED: Workload = { agents: 20, shift: 8 * 3600, answerRate: 0.3, answerDelay: [3, 15], noAnswerAfter: 25, talkMedian: 90, talkSigma: 0.5, wrapUp: 0, seed: 1 };

export interface Outcome {
  /** Talk minutes per agent-hour. */
  talkPerAgentHour: number;
  /** Abandoned / answered over the shift. */
  abandonRate: number;
  /** Dials per connected call. */
  dialsPerConnect: number;
  dials: number;
  answered: number;
  abandoned: number;
  connected: number;
  /** Times the dialer was asked (every event and every second). */
  decisions: number;
}

/** A dialer under test: asked at every event and every second how many calls to place now. */
export type Dialer = (floor: Floor, observed: Observed, totals: Totals, now: number) => number;

/** How often the simulated dialer fits its estimates again (seconds). */
export const REFIT_S = 5;

/** The pacing of pacing.ts with `policy`. */
export const predictive = (policy: Partial<Policy> = {}): Dialer => {
  const p = { ...DEFAULT_POLICY, ...policy };
  // Fitted again every REFIT_S of the shift (the window of 500 calls moves little in between).
  let fittedAt = -1;
  let fitted = estimate({ dials: 0, answered: 0, answerDelays: [], ringTimes: [], talkTimes: [] });
  return (floor, observed, totals, now) => {
    const slot = Math.floor(now / REFIT_S);
    if (slot !== fittedAt) [fittedAt, fitted] = [slot, estimate({ ...observed, talking: floor.talking })];
    return pace(floor, fitted, totals, p).dial;
  };
};

/** One call per free agent not covered by a call ringing or waiting: never abandons. */
export const progressive: Dialer = (floor) => Math.max(0, floor.free - floor.waiting - floor.ringing.length);

/** One contact's fate: whether it answers, after how long (s), and how long it then talks (s). */
export interface Fate {
  answers: boolean;
  delay: number;
  talk: number;
}

/** The contacts' fates in dial order, from the seed (three draws and a normal per contact, always, so the stream does not shift). */
function fates(w: Workload): () => Fate {
  const r = seeded(w.seed);
  return () => {
    const answers = r() < w.answerRate;
    const delay = w.answerDelay[0] + r() * (w.answerDelay[1] - w.answerDelay[0]);
    const u1 = Math.max(r(), 1e-12);
    const u2 = r();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return { answers, delay, talk: w.talkMedian * Math.exp(w.talkSigma * z) };
  };
}

type Event =
  | { at: number; kind: 'answer' | 'release'; call: number }
  | { at: number; kind: 'deadline'; call: number }
  | { at: number; kind: 'free'; agent: number }
  | { at: number; kind: 'tick' };

/** A binary heap of events by time (ties in insertion order). */
class Events {
  private heap: { e: Event; n: number }[] = [];
  private n = 0;
  push(e: Event) {
    const h = this.heap;
    h.push({ e, n: this.n++ });
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (this.less(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }
  pop(): Event | undefined {
    const h = this.heap;
    if (!h.length) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top.e;
  }
  private less(a: { e: Event; n: number }, b: { e: Event; n: number }) {
    return a.e.at < b.e.at || (a.e.at === b.e.at && a.n < b.n);
  }
}

/** Windows of what was observed: the most recent this many of each. */
const WINDOW = 500;
const pushWindow = (xs: number[], x: number) => {
  xs.push(x);
  if (xs.length > WINDOW) xs.shift();
};

/**
 * Runs `dialer` over the workload's shift. `fate`: the contacts' fates in dial order (default: drawn
 * from the workload's seed); the real-call bench passes the stream its population draws from, so that
 * the simulation and the calls meet the same people.
 */
export function simulate(w: Workload, dialer: Dialer, fate: () => Fate = fates(w)): Outcome {
  const next = fate;
  const events = new Events();
  const calls: { fate: Fate; dialledAt: number; state: 'ringing' | 'waiting' | 'done' }[] = [];
  const agents: { state: 'free' | 'talking' | 'wrapping'; since: number; freeAt: number; call: number }[] = Array.from({ length: w.agents }, () => ({ state: 'free' as const, since: 0, freeAt: 0, call: -1 }));
  const waiting: number[] = [];
  const observed = { dials: 0, answered: 0, answerDelays: [] as number[], ringTimes: [] as number[], talkTimes: [] as number[] };
  const totals = { answered: 0, abandoned: 0 };
  let connected = 0;
  let talkSeconds = 0;
  let decisions = 0;
  const ringing = new Set<number>();

  const connect = (agent: number, call: number, now: number) => {
    const a = agents[agent];
    const talk = calls[call].fate.talk;
    calls[call].state = 'done';
    a.state = 'talking';
    a.since = now;
    a.call = call;
    connected++;
    talkSeconds += Math.max(0, Math.min(now + talk, w.shift) - now);
    events.push({ at: now + talk, kind: 'free', agent });
  };
  const freeAgent = () => agents.findIndex((a) => a.state === 'free');

  const ask = (now: number) => {
    const floor: Floor = {
      free: agents.filter((a) => a.state === 'free').length,
      talking: agents.filter((a) => a.state === 'talking').map((a) => now - a.since),
      wrapping: agents.filter((a) => a.state === 'wrapping').map((a) => a.freeAt - now),
      ringing: [...ringing].map((c) => now - calls[c].dialledAt),
      waiting: waiting.length,
    };
    decisions++;
    const n = dialer(floor, observed, totals, now);
    for (let i = 0; i < n; i++) {
      const fate = next();
      const id = calls.push({ fate, dialledAt: now, state: 'ringing' }) - 1;
      ringing.add(id);
      events.push(fate.answers ? { at: now + fate.delay, kind: 'answer', call: id } : { at: now + w.noAnswerAfter, kind: 'release', call: id });
    }
  };

  for (let t = 0; t < w.shift; t += 1) events.push({ at: t, kind: 'tick' });
  for (let e = events.pop(); e && e.at < w.shift; e = events.pop()) {
    const now = e.at;
    if (e.kind === 'answer') {
      ringing.delete(e.call);
      observed.dials++;
      observed.answered++;
      pushWindow(observed.answerDelays, now - calls[e.call].dialledAt);
      totals.answered++;
      const agent = waiting.length ? -1 : freeAgent();
      if (agent >= 0) connect(agent, e.call, now);
      else {
        calls[e.call].state = 'waiting';
        waiting.push(e.call);
        events.push({ at: now + ABANDON_AFTER_S, kind: 'deadline', call: e.call });
      }
    } else if (e.kind === 'release') {
      ringing.delete(e.call);
      calls[e.call].state = 'done';
      observed.dials++;
      pushWindow(observed.ringTimes, now - calls[e.call].dialledAt);
    } else if (e.kind === 'deadline') {
      if (calls[e.call].state !== 'waiting') continue;
      waiting.splice(waiting.indexOf(e.call), 1);
      calls[e.call].state = 'done';
      totals.abandoned++;
    } else if (e.kind === 'free') {
      const a = agents[e.agent];
      if (a.state === 'talking') {
        pushWindow(observed.talkTimes, now - a.since);
        if (w.wrapUp > 0) {
          a.state = 'wrapping';
          a.freeAt = now + w.wrapUp;
          events.push({ at: a.freeAt, kind: 'free', agent: e.agent });
          continue;
        }
      }
      a.state = 'free';
      const call = waiting.shift();
      if (call !== undefined) connect(e.agent, call, now);
    }
    ask(now);
  }
  return {
    talkPerAgentHour: talkSeconds / 60 / (w.agents * (w.shift / 3600)),
    abandonRate: totals.answered ? totals.abandoned / totals.answered : 0,
    dialsPerConnect: connected ? calls.length / connected : 0,
    dials: calls.length,
    answered: totals.answered,
    abandoned: totals.abandoned,
    connected,
    decisions,
  };
}
