import * as v from 'valibot';
import { Text } from '@fluentui/react-components';
import { ACTIVITY_STATUSES, FEATURES, PERM, formatHms, listPaths, screens } from '@tongdai/contracts';
import { defineEntity, formatViTime, type EntityColumn } from '@tongdai/ui';
import { NS } from '../i18n';
import { departmentFilter, rangeFilter, select, teamFilter } from '../history/filters';
import { activityApi, useActivityOptions, type ActivityListRow } from './activity.api';

const dayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

// Widths (issue 39): at 1280 px the columns shared alike cut the day ("29/11/…") and the user ("Quản trị v")
// and ran the longer headers over three lines; below these widths the card scrolls instead.
const columns: EntityColumn<ActivityListRow>[] = [
  { key: 'day', header: 'day', width: '6.5em', render: (r) => <span data-testid="activity-day">{dayText(r.day)}</span> },
  {
    key: 'person', header: 'person', width: '10em',
    render: (r) => (
      <span style={{ display: 'flex', flexDirection: 'column' }} data-testid="activity-person" title={r.full_name}>
        <span>{r.full_name}</span>
        <Text size={200}>{[r.extension, r.department, r.team].filter(Boolean).join(' · ')}</Text>
      </span>
    ),
  },
  { key: 'first_login', header: 'first_login', width: '6em', render: (r) => <span data-testid="activity-first-login">{formatViTime(r.first_login, { seconds: true }) || '—'}</span> },
  { key: 'last_logout', header: 'last_logout', width: '6em', render: (r) => <span data-testid="activity-last-logout">{formatViTime(r.last_logout, { seconds: true }) || '—'}</span> },
  { key: 'registered', header: 'registered', width: '7em', render: (r) => <span data-testid="activity-registered">{formatHms(r.registered_sec)}</span> },
  ...ACTIVITY_STATUSES.map((s) => ({
    key: `status_${s.value}`, header: `status_${s.value}`, width: s.label.length > 10 ? '7em' : '6em',
    render: (r: ActivityListRow) => <span data-testid={`activity-status-${s.value}`}>{formatHms(r.status_sec[s.value])}</span>,
  })),
  { key: 'status_changes', header: 'status_changes', width: '7em', render: (r) => <span data-testid="activity-status-changes">{String(r.status_changes)}</span> },
  { key: 'calls_handled', header: 'calls_handled', width: '7em', render: (r) => <span data-testid="activity-calls">{String(r.calls_handled)}</span> },
];

const userFilter = select('user_id', 'user', 'allUsers', () => {
  const options = useActivityOptions();
  return options && options.users.length > 1 ? options.users.map((u) => ({ value: u.id, label: u.name })) : null;
});

/**
 * /activity-user-tenant: per user and Vietnam day (read-only). Every user may open it; the API
 * shows activity.view holders the tenant and anyone else their scope (a manager's department, a
 * leader's team, else themselves; ADR 0034). The user filter appears when there is a choice.
 */
export const activityEntity = defineEntity<ActivityListRow>({
  key: 'activity', ns: NS, prefix: 'activity', paths: listPaths(screens.activityUserTenant), permission: { view: PERM.general }, feature: FEATURES.report,
  schema: v.object({}), fields: [], api: activityApi, rowName: (r) => r.full_name, columns,
  filters: [rangeFilter, departmentFilter, teamFilter, userFilter],
});
