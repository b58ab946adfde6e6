import { Text, mergeClasses } from '@fluentui/react-components';
import { MONITOR_LABELS as L, formatDuration, longestWait, queueTone, serviceLevelText, type QueueLive } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { useServerNow } from '@tongdai/platform/react';
import { EmptyState } from '@tongdai/ui';
import { Ticking } from './Badges';
import { useMonitorStyles } from './styles';

/** A tile's figure: its label above, the value (hero-sized when `big` names that style). */
export function Figure({ label, value, testId, big }: { label: string; value: string | number; testId: string; big?: string }) {
  const s = useMonitorStyles();
  return (
    <div className={s.figure}>
      <Text size={200} className={s.muted}>{label}</Text>
      <Text weight="semibold" className={big ?? s.num} data-testid={testId}>{String(value)}</Text>
    </div>
  );
}

/**
 * One tile per queue, its top border green/amber/red by the longest wait against the queue's
 * thresholds: drawn again every second (the waits and the colour move with the clock).
 */
export function QueuesPanel({ queues, offset, wallboard }: { queues: QueueLive[]; offset: number; wallboard: boolean }) {
  const s = useMonitorStyles();
  const now = useServerNow(offset);
  if (!queues.length) return <div className={s.card}><EmptyState message={L.noQueues} /></div>;
  return (
    <div className={mergeClasses(s.tiles, wallboard && s.wallTiles)}>
      {queues.map((q) => {
        const tone = queueTone(q, now);
        const big = wallboard ? s.huge : s.big;
        return (
          <div key={q.queue_id} className={mergeClasses(s.tile, s[tone])} data-testid="queue-tile" data-queue-id={q.queue_id} data-tone={tone}>
            <Text weight="semibold" size={500}>{q.name}</Text>
            <div className={s.figures}>
              <Figure label={L.waiting} value={q.waiting.length} testId="queue-waiting-count" big={big} />
              <Figure label={L.longestWait} value={formatDuration(longestWait(q, now))} testId="queue-longest" big={big} />
              <Figure label={L.serviceLevelWithin(q.sla_seconds)} value={serviceLevelText(q.today)} testId="queue-sl" big={big} />
              <Figure label={L.agentsFree} value={q.agents_free} testId="queue-free" />
              <Figure label={L.agentsBusy} value={q.agents_busy} testId="queue-busy" />
              <Figure label={L.offered} value={q.today.offered} testId="queue-offered" />
              <Figure label={L.answered} value={q.today.answered} testId="queue-answered" />
              <Figure label={L.abandoned} value={q.today.abandoned} testId="queue-abandoned" />
              <Figure label={`${L.avgWait} / ${L.avgTalk}`} value={`${formatDuration(q.today.avg_wait_sec)} / ${formatDuration(q.today.avg_talk_sec)}`} testId="queue-avg" />
            </div>
            {!wallboard && (q.waiting.length ? q.waiting.map((w) => (
              <div key={w.call_id} className={s.waiting} data-testid="queue-caller">
                <span>{displayPhone(w.caller)}</span>
                <Ticking since={w.since} now={now} testId="queue-caller-wait" />
              </div>
            )) : <Text size={200} className={s.muted}>{L.noWaiting}</Text>)}
          </div>
        );
      })}
    </div>
  );
}
