import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { ORG_NS } from './org.i18n';

type Screens = typeof import('./screens');
/** One lazy chunk for the organisation screens (they share every building block). */
const screens = (name: keyof Screens) => () => import('./screens').then((m) => m[name]);

export const orgRoutes: RouteDef[] = [
  ...crudRoutes(paths.department, PERM.department, screens('department')),
  ...crudRoutes(paths.team, PERM.team, screens('team')),
  ...crudRoutes(paths.branch, PERM.branch, screens('branch')),
  ...crudRoutes(paths.project, PERM.project, screens('project')),
  ...crudRoutes(paths.dataSource, PERM.datasource, screens('dataSource')),
  ...crudRoutes(paths.profileStatus, PERM.profilestatus, screens('profileStatus')),
  ...crudRoutes(paths.group, PERM.group, screens('group')),
];

export const orgNav = (): NavEntry[] => {
  const label = (key: string) => i18n.t(`${key}.nav`, { ns: ORG_NS });
  return [
    { label: label('department'), path: paths.department.list, icon: 'board', permission: PERM.department.view },
    { label: label('team'), path: paths.team.list, icon: 'team', permission: PERM.team.view },
    { label: label('branch'), path: paths.branch.list, icon: 'building', permission: PERM.branch.view },
    { label: label('project'), path: paths.project.list, icon: 'briefcase', permission: PERM.project.view },
    { label: label('dataSource'), path: paths.dataSource.list, icon: 'database', permission: PERM.datasource.view },
    { label: label('profileStatus'), path: paths.profileStatus.list, icon: 'tag', permission: PERM.profilestatus.view },
    { label: label('group'), path: paths.group.list, icon: 'people', permission: PERM.group.view },
  ];
};
