import { useEffect, useMemo, useRef } from 'react';
import { Button, Select, Text, Title2, Title3, mergeClasses } from '@fluentui/react-components';
import { FullScreenMaximize20Regular, FullScreenMinimize20Regular } from '@fluentui/react-icons';
import { MONITOR_LABELS as L } from '@tongdai/contracts';
import { useLiveMonitor, type LiveMonitor } from '@tongdai/platform/react';
import { ErrorState, LoadingState, useApiError, useListParams } from '@tongdai/ui';
import { orgFilters } from '../history/filters';
import { AGENT_SORTS, agentRows, filterSortAgents } from './agents';
import { AgentsPanel } from './AgentsPanel';
import { ServerOffsetContext } from './Badges';
import { CallsPanel } from './CallsPanel';
import { CampaignsPanel } from './CampaignsPanel';
import { QueuesPanel } from './QueuesPanel';
import { SpyHelp, useCanSpy } from './SpyButtons';
import { useMonitorStyles } from './styles';

const [, departmentFilter, teamFilter] = orgFilters;

/** Whose wall a viewer without monitor.view sees (their scope, ADR 0034). */
const SCOPE_NOTES = { own: L.ownScope, department: L.departmentScope, team: L.teamScope } as const;

/** The wall itself, from a live state: agents, queues, calls. Filters and the wallboard flag come from the URL. */
export function MonitorWall({ data, filters, wallboard }: { data: LiveMonitor; filters: Record<string, string>; wallboard: boolean }) {
  const s = useMonitorStyles();
  // Rows are built again only when the live state or the filters change (events, not the clock).
  const rows = useMemo(() => filterSortAgents(agentRows(data), filters), [data, filters.department_id, filters.team_id, filters.sort]);
  const spy = useCanSpy();
  return (
    <ServerOffsetContext.Provider value={data.offset}>
      {data.scope !== 'tenant' && <Text className={s.muted} data-testid={`monitor-${data.scope}-scope`}>{SCOPE_NOTES[data.scope]}</Text>}
      {spy && !wallboard && <SpyHelp />}
      <section className={s.section} data-testid="monitor-queues">
        <Title3 as="h2">{L.queues}</Title3>
        <QueuesPanel queues={data.queues} offset={data.offset} wallboard={wallboard} />
      </section>
      {data.campaigns?.length > 0 && (
        <section className={s.section} data-testid="monitor-campaigns">
          <Title3 as="h2">{L.campaigns}</Title3>
          <CampaignsPanel campaigns={data.campaigns} wallboard={wallboard} />
        </section>
      )}
      <section className={s.section} data-testid="monitor-agents">
        <Title3 as="h2">{L.agents}</Title3>
        <AgentsPanel rows={rows} wallboard={wallboard} spy={spy} />
      </section>
      {!wallboard && (
        <section className={s.section} data-testid="monitor-calls">
          <Title3 as="h2">{L.calls}</Title3>
          <CallsPanel calls={data.calls} spy={spy} />
        </section>
      )}
    </ServerOffsetContext.Provider>
  );
}

/**
 * /monitor: the live wall (issue 14). A snapshot, then the real-time channel's events; ?wall=1 is the
 * big-screen mode. Open to every user: the API gives each their scope (an agent: their own line).
 */
export function MonitorScreen() {
  const s = useMonitorStyles();
  const list = useListParams(['department_id', 'team_id', 'sort', 'wall']);
  const query = useLiveMonitor();
  const error = useApiError(query.error);
  const wallboard = list.filters.wall === '1';
  // An agent's own wall has one row: nothing to filter or sort.
  const own = query.data?.scope === 'own';
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Full screen when the browser allows it (a user gesture toggled it); the tiles are large either way.
    if (wallboard && !document.fullscreenElement) ref.current?.requestFullscreen?.().catch(() => undefined);
    if (!wallboard && document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
  }, [wallboard]);
  const Department = departmentFilter.Control;
  const Team = teamFilter.Control;
  return (
    <section ref={ref} className={mergeClasses(s.page, wallboard && s.wall)} data-testid="monitor" data-wallboard={wallboard}>
      <div className={s.toolbar}>
        <Title2 as="h1" className={s.grow}>{L.title}</Title2>
        {!wallboard && !own && (
          <>
            <Department value={list.filters.department_id} onChange={(v) => list.setFilter('department_id', v)} />
            <Team value={list.filters.team_id} onChange={(v) => list.setFilter('team_id', v)} />
            <Select value={list.filters.sort || 'extension'} onChange={(_, d) => list.setFilter('sort', d.value)} aria-label={L.sort} data-testid="sort-agents">
              {AGENT_SORTS.map((k) => <option key={k} value={k}>{L.sorts[k]}</option>)}
            </Select>
          </>
        )}
        <Button
          appearance={wallboard ? 'primary' : 'secondary'} data-testid="wallboard-toggle"
          icon={wallboard ? <FullScreenMinimize20Regular /> : <FullScreenMaximize20Regular />}
          onClick={() => list.setFilter('wall', wallboard ? '' : '1')}
        >
          {wallboard ? L.exitWallboard : L.wallboard}
        </Button>
      </div>
      {query.isPending ? <LoadingState /> : query.isError ? (
        <ErrorState title={L.loadError} message={error?.message ?? ''} onRetry={() => void query.refetch()} />
      ) : (
        <MonitorWall data={query.data} filters={list.filters} wallboard={wallboard} />
      )}
    </section>
  );
}
