import { Badge } from '@fluentui/react-components';
import {
  BranchInputSchema, DepartmentInputSchema, GroupInputSchema, LabelInputSchema, PERM, ProfileStatusInputSchema, TeamInputSchema, paths,
  type Branch, type DataSource, type Department, type ProfileStatus, type Project, type Team, type UserGroup,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, type EntityColumn, type EntityDef, type FieldDef as KitFieldDef } from '@tongdai/ui';
import { departmentFilter } from './DepartmentFilter';
import './fieldKinds';
import { ORG_NS } from './org.i18n';

/**
 * The organisation entities as kit declarations (one namespace, strings under each entity's key):
 * the kit's list, form and dialog serve all seven.
 */
type Row = { id: number; name: string };
/** data-testid stem of an entity: "profileStatus" → "profile-status". */
export const testIdOf = (e: { key: string }) => e.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const orgEntity = <T extends Row>(key: OrgKey, api: string, def: Pick<EntityDef<T>, 'paths' | 'permission' | 'schema' | 'fields' | 'columns' | 'filters'>) => defineEntity<T>({
  ...def, key: testIdOf({ key }), prefix: key, ns: ORG_NS, rowName: (r) => r.name,
  // Every write also refreshes the dropdowns (GET /get-data-filter) and the customers' labels, which list the same rows.
  api: crudResource({ scope: 'org', name: api, base: api, client: tenantApi, refreshes: ['org', 'customers'] }),
});
type OrgKey = 'department' | 'team' | 'branch' | 'project' | 'dataSource' | 'profileStatus' | 'group';
type ColumnDef<T> = EntityColumn<T>;
type FieldDef = KitFieldDef;

const dash = (s: string | null | undefined) => s || '—';
const activeBadge = <T extends { active: boolean }>(): ColumnDef<T> => ({
  key: 'active',
  header: 'active',
  render: (r, { t }) => <Badge appearance="tint" color={r.active ? 'success' : 'informative'}>{t(r.active ? 'active' : 'inactive')}</Badge>,
});
const nameCol = <T extends { name: string }>(): ColumnDef<T> => ({ key: 'name', header: 'name', render: (r) => <span data-testid="row-name">{r.name}</span> });
const descCol = <T extends { description: string }>(): ColumnDef<T> => ({ key: 'description', header: 'description', render: (r) => dash(r.description) });

const department = orgEntity<Department>('department', 'departments', {
  paths: paths.department, permission: PERM.department, schema: DepartmentInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true }, { name: 'code', kind: 'text' },
    { name: 'manager_id', kind: 'ref', source: 'users' }, { name: 'active', kind: 'switch' }, { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'code', header: 'code', render: (r) => dash(r.code) }, nameCol(),
    { key: 'manager', header: 'manager_id', render: (r) => dash(r.manager_name) },
    // As strings: a bare 0 is dropped by the table cell's slot (falsy children render nothing).
    { key: 'teams', header: 'teams', render: (r) => String(r.team_count) },
    { key: 'users', header: 'users', render: (r) => String(r.user_count) },
    activeBadge(),
  ],
});

const team = orgEntity<Team>('team', 'teams', {
  paths: paths.team, permission: PERM.team, schema: TeamInputSchema, filters: [departmentFilter],
  fields: [
    { name: 'name', kind: 'text', required: true }, { name: 'department_id', kind: 'ref', source: 'departments', required: true },
    { name: 'leader_id', kind: 'ref', source: 'users' }, { name: 'description', kind: 'textarea' },
  ],
  columns: [
    nameCol(),
    { key: 'department', header: 'department_id', render: (r) => r.department_name },
    { key: 'leader', header: 'leader_id', render: (r) => dash(r.leader_name) },
    descCol(),
  ],
});

const branch = orgEntity<Branch>('branch', 'branches', {
  paths: paths.branch, permission: PERM.branch, schema: BranchInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true }, { name: 'code', kind: 'text' }, { name: 'phone', kind: 'tel' },
    { name: 'address', kind: 'text' }, { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'code', header: 'code', render: (r) => dash(r.code) }, nameCol(),
    { key: 'phone', header: 'phone', render: (r) => dash(r.phone) },
    { key: 'address', header: 'address', render: (r) => dash(r.address) },
  ],
});

const labelFields: FieldDef[] = [{ name: 'name', kind: 'text', required: true }, { name: 'active', kind: 'switch' }, { name: 'description', kind: 'textarea' }];

const project = orgEntity<Project>('project', 'projects', {
  paths: paths.project, permission: PERM.project, schema: LabelInputSchema, fields: labelFields, columns: [nameCol(), descCol(), activeBadge()],
});

const dataSource = orgEntity<DataSource>('dataSource', 'data-sources', {
  paths: paths.dataSource, permission: PERM.datasource, schema: LabelInputSchema, fields: labelFields, columns: [nameCol(), descCol(), activeBadge()],
});

const profileStatus = orgEntity<ProfileStatus>('profileStatus', 'profile-statuses', {
  paths: paths.profileStatus, permission: PERM.profilestatus, schema: ProfileStatusInputSchema,
  fields: [{ name: 'name', kind: 'text', required: true }, { name: 'color', kind: 'color' }, { name: 'active', kind: 'switch' }, { name: 'description', kind: 'textarea' }],
  columns: [
    {
      key: 'name', header: 'name', render: (r) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <span aria-hidden style={{ width: 12, height: 12, borderRadius: 6, background: r.color, flex: 'none' }} />
          <span data-testid="row-name">{r.name}</span>
        </span>
      ),
    },
    descCol(), activeBadge(),
  ],
});

/** Groups live on one screen (/groups): create and edit open a dialog, kept in ?dialog= so back closes it. */
const group = orgEntity<UserGroup>('group', 'groups', {
  paths: paths.group, permission: PERM.group, schema: GroupInputSchema,
  fields: [{ name: 'name', kind: 'text', required: true }, { name: 'description', kind: 'textarea' }, { name: 'member_ids', kind: 'members' }],
  columns: [
    nameCol(), descCol(),
    { key: 'members', header: 'member_ids', render: (r, { t }) => <span title={r.members.map((m) => m.full_name).join(', ')}>{t('group.memberCount', { count: r.members.length })}</span> },
  ],
});

export const ORG = { department, team, branch, project, dataSource, profileStatus, group };
