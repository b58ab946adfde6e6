/**
 * "A row may be due now", inside one API process: who waits for due rows (the media workers' asks for
 * calls to place, a background round) waits on a signal that the writer of such a row wakes once its
 * transaction committed, instead of asking the database every second. Moved here from voice-otp
 * (ADR 0052) when the campaign dialer (issue 34) needed the same wake for the same asks.
 */
export class DueSignal {
  private waiters = new Set<() => void>();
  private timers = new Set<NodeJS.Timeout>();
  /** Counts the wakes: an ask notes it before its claim, so a wake between the claim and the wait is not missed. */
  generation = 0;

  /** Something may be due now: every waiter looks. */
  wake(): void {
    this.generation++;
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const resolve of waiting) resolve();
  }

  /** Something will be due at `at` (a retry's time): wakes then. The timer holds no process open. */
  wakeAt(at: Date, now = Date.now()): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.wake();
    }, Math.max(0, at.getTime() - now));
    t.unref();
    this.timers.add(t);
  }

  /**
   * Resolves at the next wake, or after `ms`: true when woken. At once (true) when a wake came since
   * `since` (the generation read before the claim that found nothing).
   */
  wait(ms: number, since = this.generation): Promise<boolean> {
    if (this.generation !== since) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(onWake);
        resolve(woken);
      };
      const onWake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(onWake);
    });
  }

  /** Waiters now (for tests and the log). */
  get waiting(): number {
    return this.waiters.size;
  }
}

/**
 * "A call the server places may be due" (voice-OTP, the campaign dialer): the media workers' asks
 * (POST /internal/sip/media/originate) wait on it; a start, a retry's time or an agent becoming ready
 * wakes them.
 */
export const placedCallsDue = new DueSignal();
