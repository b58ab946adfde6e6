import type { LiveEvent } from '@tongdai/contracts';

/**
 * Event-to-screen latency, for the e2e and the bench: after an event is applied, the next painted
 * frame stamps `data-last-event` on the wall (server time of the event, and the browser's time the
 * frame painted). Cheap: one attribute write per event.
 */
export function probeLatency(e: LiveEvent): void {
  if (typeof requestAnimationFrame === 'undefined') return;
  requestAnimationFrame(() => {
    const wall = document.querySelector('[data-testid="monitor"]');
    wall?.setAttribute('data-last-event', JSON.stringify({ type: e.type, callId: 'callId' in e ? e.callId : null, at: e.at, painted: Date.now() }));
  });
}
