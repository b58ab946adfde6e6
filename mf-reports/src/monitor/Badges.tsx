import { createContext, useContext, useEffect, useRef } from 'react';
import { Badge, makeStyles } from '@fluentui/react-components';
import { MONITOR_LABELS as L, formatDuration, type LiveCallState } from '@tongdai/contracts';
import type { AgentState } from './agents';

const AGENT: Record<AgentState, { label: string; color: 'danger' | 'warning' | 'success' | 'informative' }> = {
  talking: { label: L.talking, color: 'danger' },
  ringing: { label: L.ringing, color: 'warning' },
  free: { label: L.free, color: 'success' },
  offline: { label: L.offline, color: 'informative' },
};
const CALL: Record<LiveCallState, { label: string; color: 'danger' | 'warning' | 'important' }> = {
  talking: { label: L.talking, color: 'danger' },
  ringing: { label: L.ringing, color: 'warning' },
  queued: { label: L.queued, color: 'important' },
};

// A badge keeps its words on one line: in a narrow column "Đang đổ chuông" would wrap out of its pill.
const useBadgeStyles = makeStyles({ badge: { whiteSpace: 'nowrap', flexShrink: 0 } });

export function AgentStateBadge({ state, size }: { state: AgentState; size?: 'large' | 'extra-large' }) {
  const b = AGENT[state];
  const s = useBadgeStyles();
  return <Badge className={s.badge} appearance="filled" color={b.color} size={size} data-testid="agent-state" data-state={state}>{b.label}</Badge>;
}

export function CallStateBadge({ state }: { state: LiveCallState }) {
  const b = CALL[state];
  const s = useBadgeStyles();
  return <Badge className={s.badge} appearance="tint" color={b.color} data-testid="call-state" data-state={state}>{b.label}</Badge>;
}

/**
 * The offset of the server's clock from this browser's (LiveMonitor.offset), for the wall's
 * running durations. The wall does not render again every second: each Ticking leaf writes its own
 * text on one shared one-second clock (ADR 0030), so 200 calls cost 400 text updates a second, not
 * a render of every row.
 */
export const ServerOffsetContext = createContext(0);

const tickers = new Set<() => void>();
let clock: ReturnType<typeof setInterval> | null = null;

/** Runs `fn` every second with every other ticker of the page (one timer); returns the unsubscribe. */
function onTick(fn: () => void): () => void {
  tickers.add(fn);
  clock ??= setInterval(() => tickers.forEach((f) => f()), 1000);
  return () => {
    tickers.delete(fn);
    if (!tickers.size && clock) {
      clearInterval(clock);
      clock = null;
    }
  };
}

const since = (from: number, now: number) => formatDuration((now - from) / 1000);

/**
 * A running duration: mm:ss from `from` to the server's time. With `now` it shows that moment (its
 * parent renders it every second); without, it ticks by itself (ServerOffsetContext).
 */
export function Ticking({ since: from, now, testId, className }: { since: number | null; now?: number; testId: string; className?: string }) {
  const offset = useContext(ServerOffsetContext);
  const ref = useRef<HTMLSpanElement>(null);
  const self = now === undefined;
  useEffect(() => {
    if (from === null || !self) return;
    const update = () => {
      const text = ref.current?.firstChild;
      const value = since(from, Date.now() + offset);
      // The text node React made, as React's own text updates do: one characterData change.
      if (text && text.nodeValue !== value) text.nodeValue = value;
    };
    update();
    return onTick(update);
  }, [from, offset, self]);
  if (from === null) return <span className={className}>—</span>;
  return <span ref={ref} className={className} data-testid={testId}>{since(from, now ?? Date.now() + offset)}</span>;
}

/** Same own values (one level deep): rows rebuilt from an unchanged agent or call are equal. */
export function sameFields<T extends object>(a: T, b: T): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
