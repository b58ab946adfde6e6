import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ACTIVITY_LABELS as L } from '@tongdai/contracts';
import { EmptyState, EntityListScreen, ErrorState, LoadingState, useApiError, useUrlParams } from '@tongdai/ui';
import { ExportControl } from '../history/ExportControl';
import { activityEntity } from './activity.entity';
import { useTimeline, type ActivityListRow } from './activity.api';
import { Timeline } from './Timeline';

const useStyles = makeStyles({
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '16px', marginTop: '16px' },
});

/** ?timeline=<user id>~<day>: the row whose day is drawn below the table. */
function useTimelineParam() {
  const [params, setParams] = useUrlParams();
  const [user, day] = (params.get('timeline') ?? '').split('~');
  return {
    userId: /^\d+$/.test(user ?? '') ? Number(user) : null,
    day: day || null,
    open: (r: ActivityListRow) => setParams((p) => p.set('timeline', `${r.user_id}~${r.day}`)),
  };
}

function TimelineCard({ userId, day }: { userId: number | null; day: string | null }) {
  const s = useStyles();
  const q = useTimeline(userId, day);
  const error = useApiError(q.error);
  return (
    <section className={s.card} aria-label={L.timeline}>
      {userId === null || !day ? <EmptyState message={L.pickRow} />
        : q.isPending ? <LoadingState />
        : q.isError ? <ErrorState message={error?.message ?? ''} onRetry={() => void q.refetch()} />
        : <Timeline data={q.data} />}
    </section>
  );
}

/** /activity-user-tenant: the table per user and day, its export, and the chosen row's timeline. */
export function ActivityScreen() {
  const timeline = useTimelineParam();
  return (
    <>
      <EntityListScreen
        entity={activityEntity}
        toolbar={<ExportControl endpoint="activity/users" file="hoat-dong-nguoi-dung" />}
        rowActions={(r) => <Button size="small" onClick={() => timeline.open(r)} data-testid="open-timeline">{L.timeline}</Button>}
        rowActionsWidth="9em"
      />
      <TimelineCard userId={timeline.userId} day={timeline.day} />
    </>
  );
}
