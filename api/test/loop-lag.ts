import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The time this process's event loop was held up from now on — by its own work or by a loaded machine's
 * scheduling, never by a wait on a server, which holds nothing up: each 10-ms tick's delay beyond its
 * 10 ms, summed. A suite that claims "answers within N s" (a frozen Redis noticed, a request that does not
 * wait on a database that went away) judges it on the process's own clock: N plus this (at load 12–16 the
 * bounds were missed by the scheduling alone: ci1 and ci3 of the thirtieth session).
 */
export function loopLag(): { ms(): number; stop(): void } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // No tick yet (a few quick requests): nothing held up (the histogram's mean is NaN then).
  const ms = () => (h.count > 0 && Number.isFinite(h.mean) ? Math.max(0, (h.mean / 1e6 - 10) * h.count) : 0);
  return { ms, stop: () => h.disable() };
}
