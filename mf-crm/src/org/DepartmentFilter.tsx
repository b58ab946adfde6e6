import { Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { EntityFilter } from '@tongdai/ui';
import { useDataFilter } from './org.api';
import { ORG_NS } from './org.i18n';

function DepartmentFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(ORG_NS);
  const options = useDataFilter();
  return (
    <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('fields.department_id')} data-testid="department-filter">
      <option value="">{t('team.allDepartments')}</option>
      {options.data?.departments.map((d) => <option key={d.id} value={String(d.id)}>{d.name}</option>)}
    </Select>
  );
}

/** Teams by department (?department_id=). */
export const departmentFilter: EntityFilter = { key: 'department_id', Control: DepartmentFilter };
