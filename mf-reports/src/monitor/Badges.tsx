import { createContext, useContext } from 'react';
import { Badge } from '@fluentui/react-components';
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

export function AgentStateBadge({ state, size }: { state: AgentState; size?: 'large' | 'extra-large' }) {
  const b = AGENT[state];
  return <Badge appearance="filled" color={b.color} size={size} data-testid="agent-state" data-state={state}>{b.label}</Badge>;
}

export function CallStateBadge({ state }: { state: LiveCallState }) {
  const b = CALL[state];
  return <Badge appearance="tint" color={b.color} data-testid="call-state" data-state={state}>{b.label}</Badge>;
}

/**
 * The server's time now, for the wall's running durations: only the Ticking leaves read it, so
 * the rows around them (memoized) do not render again every second.
 */
export const NowContext = createContext(0);

/** A running duration: mm:ss from `since` to the server's `now` (the prop, else NowContext). */
export function Ticking({ since, now, testId, className }: { since: number | null; now?: number; testId: string; className?: string }) {
  const shared = useContext(NowContext);
  if (since === null) return <span className={className}>—</span>;
  return <span className={className} data-testid={testId}>{formatDuration(((now ?? shared) - since) / 1000)}</span>;
}

/** Same own values (one level deep): rows rebuilt from an unchanged agent or call are equal. */
export function sameFields<T extends object>(a: T, b: T): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
