import type { ReactNode } from 'react';
import { Card, CardHeader, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DASHBOARD_LABELS as L, MONITOR_LABELS as M, activityLabel, callHistoryHref, formatCsat, formatDuration, longestWait, routes } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { useServerNow, type LiveMonitor } from '@tongdai/platform/react';
import { AppLink } from '@tongdai/ui';

export const useDashboardStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '16px' },
  tile: { display: 'flex', flexDirection: 'column', gap: '8px' },
  stat: { fontSize: '36px', lineHeight: '44px', fontWeight: 700, color: tokens.colorBrandForeground1, fontVariantNumeric: 'tabular-nums' },
  split: { display: 'flex', gap: '16px', flexWrap: 'wrap' },
  part: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
});

function Tile({ title, value, testId, to, link, children }: { title: string; value: ReactNode; testId: string; to?: string; link?: string; children?: ReactNode }) {
  const s = useDashboardStyles();
  return (
    <Card className={s.tile} data-testid={testId}>
      <CardHeader header={<Subtitle2>{title}</Subtitle2>} />
      <Text className={s.stat} data-testid={`${testId}-value`}>{value}</Text>
      {children}
      {to && <AppLink to={to} testId={`${testId}-link`}>{link}</AppLink>}
    </Card>
  );
}

function Part({ label, value, testId }: { label: string; value: number; testId: string }) {
  const s = useDashboardStyles();
  return (
    <span className={s.part}>
      <Text size={200} className={s.muted}>{label}</Text>
      <Text weight="semibold" data-testid={testId}>{String(value)}</Text>
    </span>
  );
}

/**
 * Today's calls (in/out, answered, missed; an agent's own when the snapshot's scope is 'own'),
 * agents online and callers waiting now. Each tile opens its report or the wall (`monitor`: the
 * viewer may open /monitor).
 */
export function DashboardTiles({ data, monitor }: { data: LiveMonitor; monitor: boolean }) {
  const s = useDashboardStyles();
  const now = useServerNow(data.offset);
  const t = data.today;
  const own = data.scope === 'own';
  const waiting = data.queues.reduce((n, q) => n + q.waiting.length, 0);
  const longest = Math.max(0, ...data.queues.map((q) => longestWait(q, now)));
  const online = data.agents.filter((a) => a.registered).length;
  // An agent's own wall holds their extension only: their call now, with a running duration.
  const me = own ? data.agents[0] : undefined;
  const myCall = me?.call_id ? data.calls.find((c) => c.call_id === me.call_id) : undefined;
  const talking = myCall?.state === 'talking';
  return (
    <div className={s.grid}>
      <Tile title={own ? L.ownToday : L.today} value={t.calls} testId="dash-calls" to={callHistoryHref({})} link={L.openReport}>
        <div className={s.split}>
          <Part label={L.callsIn} value={t.calls_in} testId="dash-calls-in" />
          <Part label={L.callsOut} value={t.calls_out} testId="dash-calls-out" />
          <Part label={L.answered} value={t.answered} testId="dash-answered" />
          <Part label={L.missed} value={t.missed} testId="dash-missed" />
        </div>
      </Tile>
      {me && (
        <Tile title={L.myLine} value={myCall ? formatDuration((now - (talking ? myCall.answered_at ?? myCall.started_at : myCall.started_at)) / 1000) : me.extension} testId="dash-me">
          <Text data-testid="dash-me-state">
            {myCall ? `${talking ? M.talking : M.ringing} · ${displayPhone(myCall.caller_extension === me.extension ? myCall.callee : myCall.caller)}` : me.registered ? M.free : M.offline}
          </Text>
          <Text className={s.muted}>{activityLabel(me.status_activity)} · {M.handledToday}: <span data-testid="dash-me-handled">{me.handled_today}</span></Text>
        </Tile>
      )}
      {!own && (
        <Tile title={L.agentsOnline} value={`${online} / ${data.agents.length}`} testId="dash-online" to={monitor ? routes.monitor() : routes.historyCdrByExten()} link={monitor ? L.openMonitor : L.openReport} />
      )}
      {(!own || waiting > 0) && (
        <Tile title={L.waitingNow} value={waiting} testId="dash-waiting" to={monitor ? routes.monitor() : undefined} link={L.openMonitor}>
          <Text className={s.muted}>{L.longestWait}: <span data-testid="dash-longest">{formatDuration(longest)}</span></Text>
        </Tile>
      )}
      {/* Post-call CSAT (issue 34): only where calls were rated today (a tenant with no CSAT queue sees no empty tile). */}
      {t.csat_count > 0 && (
        <Tile title={L.csatToday} value={formatCsat(t.csat_avg)} testId="dash-csat" to={routes.historyCdrByExten()} link={L.openReport}>
          <Text className={s.muted}><span data-testid="dash-csat-count">{t.csat_count}</span> {L.csatRated}</Text>
        </Tile>
      )}
    </div>
  );
}
