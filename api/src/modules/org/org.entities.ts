import {
  BranchInputSchema, DepartmentInputSchema, GroupInputSchema, LabelInputSchema, PERM, ProfileStatusInputSchema, TeamInputSchema,
} from '@tongdai/contracts';
import type * as v from 'valibot';

/**
 * The seven organisation entities described once: table, REST path, permissions, writable
 * columns and the read query. The repository, service and routes are generic over this, so
 * adding an entity is a declaration, not three more files.
 */
export interface EntityDef {
  /** REST collection under /t/:ma_dn. */
  path: string;
  table: string;
  perm: { view: string; create: string; edit: string; delete: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  schema: v.GenericSchema<any, any>;
  /** Columns written from the input (same names as the schema's keys). */
  fields: string[];
  /** select … from <table> x …: the main table is always aliased x. */
  select: string;
  /** Columns searched by ?search= (case-insensitive substring). */
  search: string[];
  /** Names are unique per tenant; for teams, per department. */
  uniqueScope?: string;
  /** Label used in OpenAPI tags. */
  tag: string;
}

const STAMPS = 'x.created_at, x.updated_at';

export const DEPARTMENTS: EntityDef = {
  path: 'departments',
  table: 'departments',
  perm: PERM.department,
  schema: DepartmentInputSchema,
  fields: ['name', 'code', 'description', 'manager_id', 'active'],
  select: `select x.id, x.name, x.code, x.description, x.manager_id, x.active, ${STAMPS}, m.full_name as manager_name,
      (select count(*)::int from teams t where t.department_id = x.id) as team_count,
      (select count(*)::int from users u where u.department_id = x.id) as user_count
    from departments x left join users m on m.id = x.manager_id`,
  search: ['x.name', 'x.code'],
  tag: 'departments',
};

export const TEAMS: EntityDef = {
  path: 'teams',
  table: 'teams',
  perm: PERM.team,
  schema: TeamInputSchema,
  fields: ['name', 'department_id', 'description', 'leader_id'],
  select: `select x.id, x.name, x.department_id, x.description, x.leader_id, ${STAMPS}, d.name as department_name, l.full_name as leader_name
    from teams x join departments d on d.id = x.department_id left join users l on l.id = x.leader_id`,
  search: ['x.name', 'd.name'],
  uniqueScope: 'department_id',
  tag: 'teams',
};

export const BRANCHES: EntityDef = {
  path: 'branches',
  table: 'branches',
  perm: PERM.branch,
  schema: BranchInputSchema,
  fields: ['name', 'code', 'address', 'phone', 'description'],
  select: `select x.id, x.name, x.code, x.address, x.phone, x.description, ${STAMPS} from branches x`,
  search: ['x.name', 'x.code', 'x.address', 'x.phone'],
  tag: 'branches',
};

const label = (path: string, table: string, perm: EntityDef['perm']): EntityDef => ({
  path,
  table,
  perm,
  schema: LabelInputSchema,
  fields: ['name', 'description', 'active'],
  select: `select x.id, x.name, x.description, x.active, ${STAMPS} from ${table} x`,
  search: ['x.name'],
  tag: path,
});
export const PROJECTS = label('projects', 'projects', PERM.project);
export const DATA_SOURCES = label('data-sources', 'data_sources', PERM.datasource);

export const PROFILE_STATUSES: EntityDef = {
  path: 'profile-statuses',
  table: 'profile_statuses',
  perm: PERM.profilestatus,
  schema: ProfileStatusInputSchema,
  fields: ['name', 'description', 'color', 'active'],
  select: `select x.id, x.name, x.description, x.color, x.active, ${STAMPS} from profile_statuses x`,
  search: ['x.name'],
  tag: 'profile-statuses',
};

/** member_ids are not a column: the service writes them to user_group_members. */
export const GROUPS: EntityDef = {
  path: 'groups',
  table: 'user_groups',
  perm: PERM.group,
  schema: GroupInputSchema,
  fields: ['name', 'description'],
  select: `select x.id, x.name, x.description, ${STAMPS},
      coalesce((select json_agg(json_build_object('id', u.id, 'full_name', u.full_name) order by u.full_name, u.id)
        from user_group_members gm join users u on u.id = gm.user_id where gm.group_id = x.id), '[]'::json) as members
    from user_groups x`,
  search: ['x.name', 'x.description'],
  tag: 'groups',
};

export const ENTITIES = [DEPARTMENTS, TEAMS, BRANCHES, PROJECTS, DATA_SOURCES, PROFILE_STATUSES, GROUPS];
