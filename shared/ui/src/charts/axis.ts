/**
 * A count axis' tick label: whole numbers only. The charts' scales (d3's nice ticks) step by 0.25 or
 * 0.5 when the largest count is small ("0.25", "2.25" calls); a fractional tick is left unlabelled,
 * so a count axis reads 0, 1, 2… Pass it as a chart's `yAxisTickFormat`.
 */
export function countTick(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('vi-VN') : '';
}
