import { memo } from 'react';
import { TableCell, TableRow, Text } from '@fluentui/react-components';
import { ArrowRight12Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { MONITOR_LABELS as L, nationalForm, type LiveCall } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { EmptyState } from '@tongdai/ui';
import { NS } from '../i18n';
import { CallStateBadge, Ticking } from './Badges';
import { isSpyCall, SpyButtons } from './SpyButtons';
import { useMonitorStyles } from './styles';
import { WallTable } from './WallTable';

const HEADERS = [L.caller, L.callee, L.state, L.route, L.duration];

/** The call's path as configured names: IVR → queue → agent (the agent talking or ringing last). */
export function callRoute(c: LiveCall): string[] {
  const steps = c.route.map((r) => r.name);
  const agent = c.extension ?? (c.ringing.length ? c.ringing.join(', ') : null);
  return agent && steps[steps.length - 1] !== agent ? [...steps, agent] : steps;
}

/**
 * The agent a supervisor would join on this call: the one who answered, or the one who placed it;
 * none before it is answered, nor on a supervisor's own spy call.
 */
export function spyTarget(c: LiveCall): string | null {
  return c.state === 'talking' && !isSpyCall(c) ? c.extension ?? c.caller_extension : null;
}

/** One call's row: drawn again only when the call changed (applyLiveEvent keeps unchanged calls as they were). */
const CallRow = memo(function CallRow({ c, spy }: { c: LiveCall; spy?: boolean }) {
  const s = useMonitorStyles();
  const target = spyTarget(c);
  return (
    <TableRow data-testid="call-row" data-call-id={c.call_id}>
      <TableCell>{c.caller_extension ?? displayPhone(c.caller)}</TableCell>
      {/* A call in shows the hotline it came through as every other screen writes it (02873…, not the carrier's 84…). */}
      <TableCell data-testid="call-callee">{c.direction === 'outbound' ? displayPhone(c.callee) : c.direction === 'inbound' ? c.did ?? nationalForm(c.callee) : c.callee}</TableCell>
      <TableCell><CallStateBadge state={c.state} /> <Text size={200} className={s.muted}>{L.direction[c.direction]}</Text></TableCell>
      <TableCell>
        <span className={s.route} data-testid="call-route">
          {callRoute(c).map((step, i) => (
            <span key={i} className={s.route}>{i > 0 && <ArrowRight12Regular aria-label="→" />}{step}</span>
          ))}
        </span>
      </TableCell>
      <TableCell className={s.num}><Ticking since={c.started_at} testId="call-duration" /></TableCell>
      {spy && <TableCell>{target && <SpyButtons extension={target} />}</TableCell>}
    </TableRow>
  );
});

/**
 * Every active call the viewer may see, oldest first, with its route and running duration (from
 * its own clock, Ticking); with `spy` (the viewer holds monitor.spy) the listen / whisper / barge buttons of
 * answered calls.
 */
export function CallsPanel({ calls, spy }: { calls: LiveCall[]; spy?: boolean }) {
  const { t } = useTranslation(NS);
  const s = useMonitorStyles();
  if (!calls.length) return <div className={s.card}><EmptyState message={L.noCalls} /></div>;
  const sorted = [...calls].sort((a, b) => a.started_at - b.started_at);
  return (
    <WallTable label={L.calls} headers={spy ? [...HEADERS, { label: t('monitor.spy.column'), className: s.spyColumn }] : HEADERS} testId="calls-table">
      {sorted.map((c) => <CallRow key={c.call_id} c={c} spy={spy} />)}
    </WallTable>
  );
}
