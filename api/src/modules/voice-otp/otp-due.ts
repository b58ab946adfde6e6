/**
 * "An OTP call may be due now", inside one API process (ADR 0052). The media workers' asks for calls
 * to place (POST /internal/sip/media/originate) wait on it instead of asking the database every second
 * or so: a verification just started, or a retry whose time came, wakes them, and the call is claimed
 * and placed at once (the goal: placed within 1 s of the start, p99). Idle, a worker's ask
 * costs one claim query per wait (OTP_ORIGINATE_WAIT_MS), not one every poll, on PGlite's single
 * connection that the calls' own events need.
 *
 * A start on another API instance is not seen here: the wait's end finds it (at most a wait later).
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

/** The API process's one signal: the service wakes it, the originate route waits on it. */
export const otpCallsDue = new DueSignal();

/**
 * "A status changed, a webhook delivery may be due": the API's voice-OTP round (webhooks, the lost-call
 * sweep) waits on it instead of asking the database every 2 s; a retry's time wakes it too.
 */
export const otpEventsDue = new DueSignal();
