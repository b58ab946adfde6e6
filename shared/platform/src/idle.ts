/** Runs fn when the browser is idle (or soon, where requestIdleCallback is missing). */
export function whenIdle(fn: () => void, fallbackMs = 200): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void) => void }).requestIdleCallback;
  if (ric) ric(fn);
  else setTimeout(fn, fallbackMs);
}
