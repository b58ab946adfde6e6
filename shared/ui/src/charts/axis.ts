/**
 * A count axis' tick label: whole numbers only. The charts' scales (d3's nice ticks) step by 0.25 or
 * 0.5 when the largest count is small ("0.25", "2.25" calls); a fractional tick is left unlabelled,
 * so a count axis reads 0, 1, 2… Pass it as a chart's `yAxisTickFormat`.
 */
export function countTick(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('vi-VN') : '';
}

/** react-charts' default number of steps on a value axis. */
const DEFAULT_TICK_COUNT = 4;

/**
 * A count axis for a chart whose values are `values`: whole-number labels (countTick) and no more
 * steps than the largest count, so a chart of 0–2 calls steps 0, 1, 2 — no gridlines at 0.25, 0.5.
 * Spread into a chart: `<LineChart {...countAxis(ys)} />`.
 */
export function countAxis(values: readonly number[]): { yAxisTickFormat: (value: number) => string; yAxisTickCount: number } {
  const max = Math.ceil(Math.max(0, ...values));
  return { yAxisTickFormat: countTick, yAxisTickCount: Math.min(DEFAULT_TICK_COUNT, Math.max(1, max)) };
}
