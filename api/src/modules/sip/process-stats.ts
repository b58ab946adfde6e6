import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * What this process uses, for the soak bench (`npm run bench -- soak`, issue 42) and an operator: its
 * memory (process.memoryUsage) and how late its event loop ran timers (perf_hooks'
 * monitorEventLoopDelay) since the last reset. Served on the internal listener only, behind its secret
 * (GET /internal/sip/process; `?reset=1` starts a new window after the answer). The delay histogram
 * starts on the first ask, so a process nobody asks pays nothing; from then on it is one libuv timer
 * every RESOLUTION_MS. The media worker prints the same shape on SIGUSR2 (media/src/process-stats.ts).
 */
export const PROCESS_STATS_PATH = '/internal/sip/process';

/** The sampling timer's period (ms): Node's default. */
const RESOLUTION_MS = 10;

export interface LoopDelay {
  /** Since when the window runs (ISO), and how many samples it holds. */
  since: string;
  samples: number;
  /** How late the loop ran a timer, ms (the timer's own period taken off): percentiles, mean, max. */
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
}

export interface ProcessStats {
  pid: number;
  uptime_s: number;
  rss_bytes: number;
  heap_used_bytes: number;
  heap_total_bytes: number;
  external_bytes: number;
  array_buffers_bytes: number;
  /** null on the first ask: the histogram starts then. */
  loop: LoopDelay | null;
}

let histogram: IntervalHistogram | null = null;
let since = new Date();

/** monitorEventLoopDelay's values count the timer's period (a quiet loop reads ~RESOLUTION_MS): taken off. */
const late = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);

export function processStats(o: { reset?: boolean } = {}): ProcessStats {
  const m = process.memoryUsage();
  let loop: LoopDelay | null = null;
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    since = new Date();
  } else {
    loop = {
      since: since.toISOString(),
      samples: histogram.count,
      p50_ms: late(histogram.percentile(50)),
      p99_ms: late(histogram.percentile(99)),
      mean_ms: histogram.count ? late(histogram.mean) : 0,
      max_ms: late(histogram.max),
    };
    if (o.reset) {
      histogram.reset();
      since = new Date();
    }
  }
  return {
    pid: process.pid,
    uptime_s: Math.round(process.uptime()),
    rss_bytes: m.rss,
    heap_used_bytes: m.heapUsed,
    heap_total_bytes: m.heapTotal,
    external_bytes: m.external,
    array_buffers_bytes: m.arrayBuffers,
    loop,
  };
}
