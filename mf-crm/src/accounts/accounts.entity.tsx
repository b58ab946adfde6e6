import { Badge, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_STATUSES, AccountUpdateSchema, PERM, paths, roleLabel, type Account } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { crudResource, defineEntity, type EntityFilter } from '@tongdai/ui';
import { useAllRoles } from '../roles/roles.api';
import { useDepartments } from './accounts.api';
import { ACCOUNTS_NS } from './i18n';

const statusLabel = (v: string) => ACCOUNT_STATUSES.find((s) => s.value === v)?.label ?? v;

type FilterProps = { value: string; onChange: (value: string) => void };

/** Shown to those who may read the roles (GET /roles needs role.view). */
function RoleFilter({ value, onChange }: FilterProps) {
  const { t } = useTranslation(ACCOUNTS_NS);
  const { can } = useCan();
  const roles = useAllRoles(can(PERM.role.view));
  if (!roles.data) return null;
  return (
    <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('fields.role')} data-testid="role-filter">
      <option value="">{t('allRoles')}</option>
      {roles.data.map((r) => <option key={r.id} value={r.id}>{roleLabel(r)}</option>)}
    </Select>
  );
}

function StatusFilter({ value, onChange }: FilterProps) {
  const { t } = useTranslation(ACCOUNTS_NS);
  return (
    <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('fields.status')} data-testid="status-filter">
      <option value="">{t('allStatuses')}</option>
      {ACCOUNT_STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
    </Select>
  );
}

function DepartmentName({ id }: { id: number | null }) {
  const departments = useDepartments();
  return <>{departments.find((d) => d.id === id)?.name ?? '—'}</>;
}

const filters: EntityFilter[] = [{ key: 'role_id', Control: RoleFilter }, { key: 'status', Control: StatusFilter }];

/** Accounts (SPEC §2 /accounts): the list is the kit's; the form is its own (seats, password, extension). */
export const accountEntity = defineEntity<Account>({
  key: 'account', ns: ACCOUNTS_NS, paths: paths.account, permission: PERM.account, schema: AccountUpdateSchema, fields: [],
  // A role's account count changes with every account write.
  api: crudResource({ scope: 'accounts', name: 'accounts', base: 'accounts', client: tenantApi, refreshes: ['accounts', 'roles'] }),
  rowName: (a) => `${a.full_name} (${a.username})`,
  filters,
  columns: [
    { key: 'full_name', header: 'full_name', render: (a) => <span data-testid="account-name">{a.full_name}</span> },
    { key: 'username', header: 'username', render: (a) => <span data-testid="account-username">{a.username}</span> },
    { key: 'role', header: 'role', render: (a) => <span data-testid="account-role">{a.role_label ?? '—'}</span> },
    { key: 'department', header: 'department_id', render: (a) => <DepartmentName id={a.department_id} /> },
    { key: 'extension', header: 'extension_code', render: (a) => <span data-testid="account-extension">{a.extension_code || '—'}</span> },
    { key: 'phone', header: 'phone', render: (a) => a.phone || '—' },
    {
      key: 'status', header: 'status', render: (a) => (
        <Badge appearance="tint" color={a.status === 'active' ? 'success' : 'danger'} data-testid="account-status">{statusLabel(a.status)}</Badge>
      ),
    },
  ],
});
