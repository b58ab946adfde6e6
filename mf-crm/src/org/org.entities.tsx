import type { ReactNode } from 'react';
import { Badge } from '@fluentui/react-components';
import {
  BranchInputSchema, DepartmentInputSchema, GroupInputSchema, LabelInputSchema, PERM, ProfileStatusInputSchema, TeamInputSchema,
  type Branch, type DataFilter, type DataSource, type Department, type ProfileStatus, type Project, type Team, type UserGroup,
} from '@tongdai/contracts';
import type * as v from 'valibot';

/**
 * The organisation screens described as data: one generic list, form and API hook set serve
 * all seven entities (STYLE: twenty list screens share one building block).
 */
export type FieldDef =
  | { name: string; kind: 'text' | 'tel' | 'textarea'; required?: boolean }
  | { name: string; kind: 'switch' | 'color' | 'members' }
  | { name: string; kind: 'ref'; source: Exclude<keyof DataFilter, 'teams'>; required?: boolean };

export interface ColumnDef<T> {
  key: string;
  /** Key under `fields` in the org namespace. */
  header: string;
  render: (row: T, t: (k: string, o?: Record<string, unknown>) => string) => ReactNode;
}

export interface OrgEntity<T extends { id: number; name: string } = { id: number; name: string }> {
  /** i18n key and data-testid stem ("department" → "department-list", "department-form"). */
  key: 'department' | 'team' | 'branch' | 'project' | 'dataSource' | 'profileStatus' | 'group';
  /** API collection under the tenant base. */
  api: string;
  list: string;
  add: string;
  edit: (id: number) => string;
  perm: { view: string; create: string; edit: string; delete: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  schema: v.GenericSchema<any, any>;
  fields: FieldDef[];
  columns: ColumnDef<T>[];
  /** The list gets a department filter (teams). */
  byDepartment?: boolean;
}

const dash = (s: string | null | undefined) => s || '—';
const activeBadge = <T extends { active: boolean }>(): ColumnDef<T> => ({
  key: 'active',
  header: 'active',
  render: (r, t) => <Badge appearance="tint" color={r.active ? 'success' : 'informative'}>{t(r.active ? 'active' : 'inactive')}</Badge>,
});
const nameCol = <T extends { name: string }>(): ColumnDef<T> => ({ key: 'name', header: 'name', render: (r) => <span data-testid="row-name">{r.name}</span> });
const descCol = <T extends { description: string }>(): ColumnDef<T> => ({ key: 'description', header: 'description', render: (r) => dash(r.description) });

const department: OrgEntity<Department> = {
  key: 'department', api: 'departments', list: '/departments', add: '/department/add', edit: (id) => `/department/edit/${id}`,
  perm: PERM.department, schema: DepartmentInputSchema,
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
};

const team: OrgEntity<Team> = {
  key: 'team', api: 'teams', list: '/teams', add: '/team/add', edit: (id) => `/team/edit/${id}`,
  perm: PERM.team, schema: TeamInputSchema, byDepartment: true,
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
};

const branch: OrgEntity<Branch> = {
  key: 'branch', api: 'branches', list: '/branchs', add: '/branch/add', edit: (id) => `/branch/edit/${id}`,
  perm: PERM.branch, schema: BranchInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true }, { name: 'code', kind: 'text' }, { name: 'phone', kind: 'tel' },
    { name: 'address', kind: 'text' }, { name: 'description', kind: 'textarea' },
  ],
  columns: [
    { key: 'code', header: 'code', render: (r) => dash(r.code) }, nameCol(),
    { key: 'phone', header: 'phone', render: (r) => dash(r.phone) },
    { key: 'address', header: 'address', render: (r) => dash(r.address) },
  ],
};

const labelFields: FieldDef[] = [{ name: 'name', kind: 'text', required: true }, { name: 'active', kind: 'switch' }, { name: 'description', kind: 'textarea' }];

const project: OrgEntity<Project> = {
  key: 'project', api: 'projects', list: '/projects', add: '/project/add', edit: (id) => `/project/edit/${id}`,
  perm: PERM.project, schema: LabelInputSchema, fields: labelFields, columns: [nameCol(), descCol(), activeBadge()],
};

const dataSource: OrgEntity<DataSource> = {
  key: 'dataSource', api: 'data-sources', list: '/data-sources', add: '/data-source/add', edit: (id) => `/data-source/edit/${id}`,
  perm: PERM.datasource, schema: LabelInputSchema, fields: labelFields, columns: [nameCol(), descCol(), activeBadge()],
};

const profileStatus: OrgEntity<ProfileStatus> = {
  key: 'profileStatus', api: 'profile-statuses', list: '/profile-status', add: '/profile-status/add', edit: (id) => `/profile-status/edit/${id}`,
  perm: PERM.profilestatus, schema: ProfileStatusInputSchema,
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
};

/** Groups live on one screen (/groups): create and edit open a dialog, kept in ?dialog= so back closes it. */
const group: OrgEntity<UserGroup> = {
  key: 'group', api: 'groups', list: '/groups', add: '/groups?dialog=new', edit: (id) => `/groups?dialog=${id}`,
  perm: PERM.group, schema: GroupInputSchema,
  fields: [{ name: 'name', kind: 'text', required: true }, { name: 'description', kind: 'textarea' }, { name: 'member_ids', kind: 'members' }],
  columns: [
    nameCol(), descCol(),
    { key: 'members', header: 'member_ids', render: (r, t) => <span title={r.members.map((m) => m.full_name).join(', ')}>{t('group.memberCount', { count: r.members.length })}</span> },
  ],
};

export const ORG = { department, team, branch, project, dataSource, profileStatus, group };

/** data-testid stem of an entity: "profileStatus" → "profile-status". */
export const testIdOf = (e: Pick<OrgEntity, 'key'>) => e.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
