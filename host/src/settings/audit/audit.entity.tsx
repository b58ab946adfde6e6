import * as v from 'valibot';
import { Badge, Caption1, type BadgeProps } from '@fluentui/react-components';
import {
  AUDIT_ACTIONS, AUDIT_KINDS, AUDIT_SETTING, PERM, auditChanges, listPaths, paths, type AuditAction, type AuditEntry,
} from '@tongdai/contracts';
import { dateRangeFilter, defineEntity, formatViDateTime, selectFilter, type EntityColumn } from '@tongdai/ui';
import { auditApi, exportAudit, useAuditOptions } from './audit.api';
import { AUDIT_NS } from './i18n';

const ACTION_COLOR: Record<AuditAction, BadgeProps['color']> = { create: 'success', update: 'informative', delete: 'danger' };

/** Two lines in one cell: the main text and a caption under it (the table cuts neither: each has its title). */
const twoLines = (main: string, caption: string, ids: [string, string]) => (
  <span style={{ display: 'flex', flexDirection: 'column' }} title={caption ? `${main}\n${caption}` : main}>
    <span data-testid={ids[0]}>{main}</span>
    {caption && <Caption1 data-testid={ids[1]}>{caption}</Caption1>}
  </span>
);

const columns: EntityColumn<AuditEntry>[] = [
  { key: 'at', header: 'at', width: '11em', render: (r) => <span data-testid="audit-at">{formatViDateTime(r.at)}</span> },
  { key: 'actor', header: 'actor', render: (r) => twoLines(r.actor_name || r.actor_username, r.actor_name ? r.actor_username : '', ['audit-actor', 'audit-username']) },
  { key: 'ip', header: 'ip', width: '8.5em', render: (r) => <span data-testid="audit-ip">{r.ip}</span> },
  { key: 'kind', header: 'kind', render: (r) => <span data-testid="audit-kind" title={AUDIT_KINDS[r.kind] ?? r.kind}>{AUDIT_KINDS[r.kind] ?? r.kind}</span> },
  {
    // The object, and under it the fields an edit changed (the detail shows their values).
    key: 'entity', header: 'entity',
    render: (r) => twoLines(r.entity_name || `#${r.entity_id}`, r.action === 'update' ? auditChanges(r).map((c) => c.label).join(', ') : '', ['audit-entity', 'audit-changes']),
  },
  {
    key: 'action', header: 'action', width: '6em',
    render: (r) => <Badge appearance="tint" color={ACTION_COLOR[r.action]} data-testid="audit-action">{AUDIT_ACTIONS[r.action]}</Badge>,
  },
];

const choices = (labels: Readonly<Record<string, string>>) => () => Object.entries(labels).map(([value, label]) => ({ value, label }));
const select = (key: string, name: string, all: string, useOptions: () => readonly { value: string | number; label: string }[] | null) =>
  selectFilter({ key, ns: AUDIT_NS, label: `filters.${name}`, all: `filters.${all}`, testId: `audit-${name}-filter`, useOptions });

/**
 * /setting/audit-log: the audit log of administrative changes (issue 42), read-only, newest first.
 * audit.view opens it; audit.export downloads what the filters match.
 */
export const auditEntity = defineEntity<AuditEntry>({
  key: 'audit', ns: AUDIT_NS, paths: listPaths(paths.settings.tenant(AUDIT_SETTING)), permission: { view: PERM.audit.view },
  schema: v.object({}), fields: [], api: auditApi, rowName: (r) => r.entity_name, columns,
  filters: [
    dateRangeFilter({ empty: 'all' }),
    select('user_id', 'user', 'allUsers', () => useAuditOptions()?.users.map((u) => ({ value: u.id, label: u.name })) ?? null),
    select('kind', 'kind', 'allKinds', choices(AUDIT_KINDS)),
    select('action', 'action', 'allActions', choices(AUDIT_ACTIONS)),
  ],
  export: { permission: PERM.audit.export, formats: ['csv', 'xlsx'], run: exportAudit },
});
