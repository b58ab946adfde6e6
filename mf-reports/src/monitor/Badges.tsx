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

/** A running duration: mm:ss from `since` to the server's `now`. */
export function Ticking({ since, now, testId, className }: { since: number | null; now: number; testId: string; className?: string }) {
  if (since === null) return <span className={className}>—</span>;
  return <span className={className} data-testid={testId}>{formatDuration((now - since) / 1000)}</span>;
}
