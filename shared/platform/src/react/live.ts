import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MONITOR_API, catchUp, includesEvent, needsSnapshot } from '@tongdai/contracts/lean';
import type { LiveEvent, MonitorSnapshot } from '@tongdai/contracts';
import { tenantApi } from '../http';
import { connectPbxEvents, monitorEvents$, pbxEvents$, realtimeOpens$ } from '../realtime';

/** The snapshot as held by the screens: plus the browser clock's offset from the server's. */
export interface LiveMonitor extends MonitorSnapshot {
  /** server time − browser time, ms (durations tick on the server's clock). */
  offset: number;
}

export const LIVE_MONITOR_KEY = ['monitor', 'snapshot'] as const;

/** Wait this long after a call ends (or an unknown call shows) before asking for a new snapshot (the CDR is written as it ends). */
export const FIGURES_DEBOUNCE_MS = 1500;

/** Events arriving within this long of the last applied batch wait for the next one (one render). */
export const LIVE_BATCH_MS = 250;

/**
 * The snapshot, caught up with the events heard while it was asked for. The server computed it at
 * some point of the request, and the events it did not include yet arrive meanwhile: applied to the
 * state held before, they were then overwritten by this answer and lost (102 left ringing on
 * /monitor after its call had ended). So they are kept here and applied on top of the answer, all
 * those after its position on the channel (`seq`); an event the channel did not number is applied
 * again (applyLiveEvent changes nothing then).
 */
const fetchSnapshot = async (): Promise<LiveMonitor> => {
  const heard: LiveEvent[] = [];
  const subs = [pbxEvents$.subscribe((e) => heard.push(e)), monitorEvents$.subscribe((e) => heard.push(e))];
  try {
    const { data } = await tenantApi().get(MONITOR_API.snapshot).json<{ data: MonitorSnapshot }>();
    return { ...catchUp(data, heard), offset: data.at - Date.now() };
  } finally {
    subs.forEach((s) => s.unsubscribe());
  }
};

/**
 * The live wall's state for any screen (/monitor, the dashboard): the snapshot endpoint, then every
 * event of the real-time channel applied as it arrives (the socket is held open while mounted; the
 * events heard while a snapshot is asked for are applied on top of it, see fetchSnapshot). A new
 * snapshot is taken after the socket reopens (events in between are lost) and, debounced, after a
 * call ends (today's figures come from the read model) or a call it did not hold appears. One query key: two screens share one state.
 */
export function useLiveMonitor(options: { enabled?: boolean } = {}) {
  const enabled = options.enabled ?? true;
  const qc = useQueryClient();
  const query = useQuery({ queryKey: LIVE_MONITOR_KEY, queryFn: fetchSnapshot, enabled, retry: false, refetchOnWindowFocus: false });
  useEffect(() => {
    if (!enabled) return;
    const release = connectPbxEvents();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => void qc.invalidateQueries({ queryKey: LIVE_MONITOR_KEY });
    // Events are applied in batches, at most one state (one render of the wall) per LIVE_BATCH_MS:
    // a tenant with 200 live calls sends tens of events a second, and a render per event kept a
    // browser's wall 13 s behind (npm run bench -- wall). The first event after a quiet spell
    // is applied at once (the next task), the ones that follow it together.
    let pending: LiveEvent[] = [];
    let batch: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = -Infinity;
    const flush = () => {
      batch = null;
      lastFlush = Date.now();
      const events = pending;
      pending = [];
      const before = qc.getQueryData<LiveMonitor>(LIVE_MONITOR_KEY);
      if (!before) return;
      let next: MonitorSnapshot = before;
      let snapshot = false;
      // An event waiting here while a new snapshot arrived may be in it already (or applied on top
      // of it by fetchSnapshot): catchUp leaves out what the state's position says it includes.
      for (const e of events) {
        if (includesEvent(next, e)) continue;
        snapshot ||= needsSnapshot(next, e);
        next = catchUp(next, [e]);
      }
      qc.setQueryData<LiveMonitor>(LIVE_MONITOR_KEY, { ...next, offset: before.offset });
      if (!snapshot) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, FIGURES_DEBOUNCE_MS);
    };
    const apply = (e: LiveEvent) => {
      pending.push(e);
      batch ??= setTimeout(flush, Math.max(0, lastFlush + LIVE_BATCH_MS - Date.now()));
    };
    let first: number | null = null;
    const subs = [
      pbxEvents$.subscribe(apply),
      monitorEvents$.subscribe(apply),
      realtimeOpens$.subscribe((n) => {
        // The first opening seen here is the one the snapshot already follows.
        if (first === null) first = n;
        else if (n > first) refresh();
      }),
    ];
    return () => {
      subs.forEach((s) => s.unsubscribe());
      if (timer) clearTimeout(timer);
      if (batch) clearTimeout(batch);
      release();
    };
  }, [enabled, qc]);
  return query;
}

/** The server's time now (epoch ms), re-rendering every `everyMs` (running durations tick every second). */
export function useServerNow(offset: number, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    const t = setInterval(() => setNow(Date.now() + offset), everyMs);
    return () => clearInterval(t);
  }, [offset, everyMs]);
  return now;
}
