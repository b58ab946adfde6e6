import { selectFilter } from '@tongdai/ui';
import { useDataFilter } from './org.api';
import { ORG_NS } from './org.i18n';

/** Teams by department (?department_id=). */
export const departmentFilter = selectFilter({
  key: 'department_id', ns: ORG_NS, label: 'fields.department_id', all: 'team.allDepartments', testId: 'department-filter',
  useOptions: () => useDataFilter().data?.departments.map((d) => ({ value: d.id, label: d.name })) ?? [],
});
