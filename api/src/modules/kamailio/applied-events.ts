/**
 * Which of Kamailio's outbox events this process has applied, per Kamailio start (issue 38).
 *
 * A call's end and the next call's plan race: Kamailio emits a call's "failed" or "end" event before
 * it sends the caller the final answer, but the event reaches the API over evapi and the next call's
 * plan request over HTTP, and the API may plan the next call first — with the callee still busy (486,
 * or its voicemail, for a phone that is free: 200 back-to-back calls in `npm run bench -- sip` met it).
 * Each plan request carries the last event Kamailio had numbered when it asked ("<start>.<seq>",
 * sip/kamailio.cfg route[ROUTE_ASK]); the plan waits, briefly, until every event up to it is applied.
 *
 * Every number of a start is an event (route[EMIT] draws them one by one), so "applied up to n" is a
 * low-water mark. Events from before this process first heard of a start count as applied (an earlier
 * API applied them, or Kamailio replays them). A number that does not come within the wait (an event
 * this connection missed and a replay will bring) is given up on: the mark moves past it, so one lost
 * event costs one wait, not a wait per call.
 */
export class AppliedEvents {
  private readonly starts = new Map<number, { low: number; above: Set<number> }>();
  private waiters: Array<{ start: number; seq: number; done: (ok: boolean) => void }> = [];

  /** An event of Kamailio start `start`, number `seq`, is applied (its effect on the live state made). */
  mark(start: number, seq: number): void {
    let s = this.starts.get(start);
    if (!s) {
      s = { low: seq - 1, above: new Set() };
      this.starts.set(start, s);
    }
    if (seq <= s.low) return;
    if (seq === s.low + 1) {
      s.low = seq;
      while (s.above.delete(s.low + 1)) s.low++;
    } else s.above.add(seq);
    this.wake();
  }

  /** Whether every event of `start` up to `seq` is applied (true for a start this process never heard of). */
  has(start: number, seq: number): boolean {
    const s = this.starts.get(start);
    return !s || s.low >= seq;
  }

  /** Resolves true once every event up to `seq` is applied; false after `timeoutMs` (then counted as applied). */
  waitFor(start: number, seq: number, timeoutMs: number): Promise<boolean> {
    if (this.has(start, seq)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        start,
        seq,
        done: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.giveUp(start, seq);
        resolve(false);
      }, timeoutMs);
      timer.unref?.();
      this.waiters.push(waiter);
    });
  }

  /** The numbers up to `seq` that never came are not waited for again. */
  private giveUp(start: number, seq: number): void {
    const s = this.starts.get(start);
    if (!s || s.low >= seq) return;
    s.low = seq;
    for (const n of s.above) if (n <= seq) s.above.delete(n);
    while (s.above.delete(s.low + 1)) s.low++;
    this.wake();
  }

  private wake(): void {
    if (!this.waiters.length) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) (this.has(w.start, w.seq) ? w.done(true) : still.push(w));
    this.waiters = still;
  }
}

/** "<start>.<seq>" (a plan request's `ev`) → its parts, or null. */
export function parseEventMark(ev: string | undefined): [number, number] | null {
  const m = ev ? /^(\d{1,12})\.(\d{1,12})$/.exec(ev) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}
