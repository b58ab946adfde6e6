import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * What the worker uses, for the soak bench (`npm run bench -- soak`, issue 42) and an operator: on
 * SIGUSR2 it prints one line, `PROCESS_STATS_MARK {json}`, to its output (the stack's media.log): its
 * memory and how late its event loop ran timers since the last SIGUSR2 (perf_hooks'
 * monitorEventLoopDelay, started by the first one), then starts a new window. A signal and not a port:
 * the worker serves SIP alone, and only its own user (or root) may signal it. The API serves the same
 * shape on its internal listener (api/src/modules/sip/process-stats.ts, GET /internal/sip/process).
 */
export const PROCESS_STATS_MARK = 'tongdai-process-stats';

/** The sampling timer's period (ms): Node's default. */
const RESOLUTION_MS = 10;

export interface LoopDelay {
  since: string;
  samples: number;
  /** How late the loop ran a timer, ms (the timer's own period taken off). */
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
  /** null on the first signal: the histogram starts then. */
  loop: LoopDelay | null;
}

let histogram: IntervalHistogram | null = null;
let since = new Date();

const late = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);

/** The stats since the last call (the loop's: null the first time), then a new window. */
export function processStats(): ProcessStats {
  const m = process.memoryUsage();
  let loop: LoopDelay | null = null;
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  } else {
    loop = {
      since: since.toISOString(),
      samples: histogram.count,
      p50_ms: late(histogram.percentile(50)),
      p99_ms: late(histogram.percentile(99)),
      mean_ms: histogram.count ? late(histogram.mean) : 0,
      max_ms: late(histogram.max),
    };
    histogram.reset();
  }
  since = new Date();
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

/** SIGUSR2 → one line of stats on stdout (main.ts). */
export function printStatsOnSignal(write: (line: string) => void = (line) => process.stdout.write(line)): void {
  process.on('SIGUSR2', () => write(`${PROCESS_STATS_MARK} ${JSON.stringify(processStats())}\n`));
}
