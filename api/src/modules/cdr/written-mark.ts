/**
 * What a buffered writer has really put in the database, for who waits on it (`written()`):
 * every change gets a number when it is made; a waiter waits until no change numbered at or
 * before its call is still unwritten — whatever batch it is in, in flight or buffered again after
 * a failed try. (Waiting on "the flush in flight" instead, as the writers did, let a waiter go
 * when that flush *failed*: seen in a loaded CI run of db-outage.integration, and it would let the
 * API acknowledge to Kamailio a call record that is not written.)
 */
export class WrittenMark {
  private last = 0;
  /** Numbers not yet written, in the order they were given (a Set keeps insertion order). */
  private unwritten = new Set<number>();
  private waiters: { upTo: number; resolve: () => void }[] = [];

  /** A new change: its number, unwritten until `done`. */
  next(): number {
    this.last += 1;
    this.unwritten.add(this.last);
    return this.last;
  }

  /** These changes are in the database (or given up for good: refused for what they say). */
  done(numbers: Iterable<number>): void {
    for (const n of numbers) this.unwritten.delete(n);
    if (!this.waiters.length) return;
    const first = this.unwritten.values().next();
    const oldest = first.done ? Infinity : first.value;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.upTo < oldest) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Resolves once every change numbered so far is done. */
  written(): Promise<void> {
    if (!this.unwritten.size) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upTo: this.last, resolve }));
  }
}
