import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { ORG_NS } from './org.i18n';

type Screens = typeof import('./screens');
/** One lazy chunk for the organisation screens (they share every building block). */
const screen = (name: keyof Screens) => () => import('./screens').then((m) => ({ default: m[name] }));

/** List, add and edit routes of one entity (SPEC §2 spellings, including "branchs"). */
const crud = (list: string, one: string, perm: { view: string; create: string; edit: string }, List: keyof Screens, Form: keyof Screens): RouteDef[] => [
  { path: list, loader: screen(List), permission: perm.view },
  { path: `/${one}/add`, loader: screen(Form), permission: perm.create },
  { path: `/${one}/edit/:id`, loader: screen(Form), permission: perm.edit },
];

export const orgRoutes: RouteDef[] = [
  ...crud('/departments', 'department', PERM.department, 'DepartmentList', 'DepartmentForm'),
  ...crud('/teams', 'team', PERM.team, 'TeamList', 'TeamForm'),
  ...crud('/branchs', 'branch', PERM.branch, 'BranchList', 'BranchForm'),
  ...crud('/projects', 'project', PERM.project, 'ProjectList', 'ProjectForm'),
  ...crud('/data-sources', 'data-source', PERM.datasource, 'DataSourceList', 'DataSourceForm'),
  ...crud('/profile-status', 'profile-status', PERM.profilestatus, 'ProfileStatusList', 'ProfileStatusForm'),
  { path: '/groups', loader: () => import('./GroupsScreen'), permission: PERM.group.view },
];

export const orgNav = (): NavEntry[] => {
  const label = (key: string) => i18n.t(`${key}.nav`, { ns: ORG_NS });
  return [
    { label: label('department'), path: '/departments', icon: 'board', permission: PERM.department.view },
    { label: label('team'), path: '/teams', icon: 'team', permission: PERM.team.view },
    { label: label('branch'), path: '/branchs', icon: 'building', permission: PERM.branch.view },
    { label: label('project'), path: '/projects', icon: 'briefcase', permission: PERM.project.view },
    { label: label('dataSource'), path: '/data-sources', icon: 'database', permission: PERM.datasource.view },
    { label: label('profileStatus'), path: '/profile-status', icon: 'tag', permission: PERM.profilestatus.view },
    { label: label('group'), path: '/groups', icon: 'people', permission: PERM.group.view },
  ];
};
