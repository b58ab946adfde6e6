import { memo } from 'react';
import { TableCell, TableRow, Text, mergeClasses } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { MONITOR_LABELS as L, activityLabel } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { EmptyState } from '@tongdai/ui';
import { NS } from '../i18n';
import type { AgentRow } from './agents';
import { AgentStateBadge, sameFields, Ticking } from './Badges';
import { isSpyCall, SpyButtons } from './SpyButtons';
import { useMonitorStyles } from './styles';
import { WallTable } from './WallTable';

const HEADERS = [L.extension, L.person, L.registration, L.activity, L.currentCall, L.duration, L.handledToday];

/** An agent talking, not as a supervisor on a spy call: one a supervisor may join. */
const joinable = (a: AgentRow): boolean => a.state === 'talking' && !!a.call && !isSpyCall(a.call);

/** One agent's tile (wallboard) or row: drawn again only when what it shows changed. */
const AgentTile = memo(function AgentTile({ a, spy }: { a: AgentRow; spy?: boolean }) {
  const s = useMonitorStyles();
  return (
    <div
      data-testid="agent-row" data-extension={a.extension}
      className={mergeClasses(s.tile, a.state === 'offline' ? s.offline : a.state === 'free' ? s.green : a.state === 'ringing' ? s.amber : s.red)}
    >
      <Text className={s.big}>{a.extension}</Text>
      <Text truncate wrap={false}>{a.full_name ?? '—'}</Text>
      <AgentStateBadge state={a.state} size="large" />
      <Text className={s.muted} data-testid="agent-activity">{activityLabel(a.status_activity)}</Text>
      {a.call && <Text data-testid="agent-party">{displayPhone(a.party ?? '')}</Text>}
      <Ticking since={a.since} testId="agent-duration" className={s.big} />
      <Text className={s.muted}>{L.handledToday}: <span data-testid="agent-handled">{a.handled_today}</span></Text>
      {spy && joinable(a) && <SpyButtons extension={a.extension} />}
    </div>
  );
}, (p, n) => p.spy === n.spy && sameFields(p.a, n.a));

const AgentTableRow = memo(function AgentTableRow({ a, spy }: { a: AgentRow; spy?: boolean }) {
  const s = useMonitorStyles();
  return (
    <TableRow data-testid="agent-row" data-extension={a.extension}>
      <TableCell><Text weight="semibold">{a.extension}</Text></TableCell>
      <TableCell>{a.full_name ?? '—'}</TableCell>
      <TableCell data-testid="agent-registration">{a.registered ? L.registered : L.offline}</TableCell>
      <TableCell data-testid="agent-activity">{activityLabel(a.status_activity)}</TableCell>
      <TableCell>
        <span className={s.route}>
          <AgentStateBadge state={a.state} />
          {a.call && <span data-testid="agent-party">{displayPhone(a.party ?? '')}</span>}
        </span>
      </TableCell>
      <TableCell className={s.num}><Ticking since={a.since} testId="agent-duration" /></TableCell>
      <TableCell className={s.num} data-testid="agent-handled">{String(a.handled_today)}</TableCell>
      {spy && <TableCell>{joinable(a) && <SpyButtons extension={a.extension} />}</TableCell>}
    </TableRow>
  );
}, (p, n) => p.spy === n.spy && sameFields(p.a, n.a));

/**
 * The agents: a table, or in the wallboard one large tile each. With `spy` (the viewer holds
 * monitor.spy) each agent talking gets the listen / whisper / barge buttons. Durations tick from
 * their own clock (Ticking).
 */
export function AgentsPanel({ rows, wallboard, spy }: { rows: AgentRow[]; wallboard: boolean; spy?: boolean }) {
  const { t } = useTranslation(NS);
  const s = useMonitorStyles();
  if (!rows.length) return <div className={s.card}><EmptyState message={L.noAgents} /></div>;
  if (wallboard) {
    return (
      <div className={s.agentTiles} data-testid="agent-tiles">
        {rows.map((a) => <AgentTile key={a.extension} a={a} spy={spy} />)}
      </div>
    );
  }
  return (
    <WallTable label={L.agents} headers={spy ? [...HEADERS, { label: t('monitor.spy.column'), className: s.spyColumn }] : HEADERS} testId="agents-table">
      {rows.map((a) => <AgentTableRow key={a.extension} a={a} spy={spy} />)}
    </WallTable>
  );
}
