import { Badge } from '@fluentui/react-components';
import { ACCOUNT_STATUSES, AccountCreateSchema, AccountUpdateSchema, PERM, paths, roleLabel, type Account } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { crudResource, defineEntity, selectFilter, type DraftForm, type FieldDef } from '@tongdai/ui';
import { useAllRoles } from '../roles/roles.api';
import { useDepartments } from './accounts.api';
import { ACCOUNTS_NS } from './i18n';

const statusLabel = (v: string) => ACCOUNT_STATUSES.find((s) => s.value === v)?.label ?? v;

/** The roles only to those who may read them (GET /roles needs role.view). */
function useRoleOptions() {
  const { can } = useCan();
  return useAllRoles(can(PERM.role.view)).data?.map((r) => ({ value: r.id, label: roleLabel(r) })) ?? null;
}

function DepartmentName({ id }: { id: number | null }) {
  const departments = useDepartments();
  return <>{departments.find((d) => d.id === id)?.name ?? '—'}</>;
}

const filters = [
  selectFilter({ key: 'role_id', ns: ACCOUNTS_NS, label: 'fields.role', all: 'allRoles', testId: 'role-filter', useOptions: useRoleOptions }),
  selectFilter({ key: 'status', ns: ACCOUNTS_NS, label: 'fields.status', all: 'allStatuses', testId: 'status-filter', useOptions: () => ACCOUNT_STATUSES }),
];

/** The account's fields; role, status and the organisation ids are select values ("" = none). */
const fields: FieldDef[] = [
  { name: 'full_name', kind: 'text', required: true }, { name: 'username', kind: 'text', required: true },
  { name: 'role_id', kind: 'text', required: true }, { name: 'status', kind: 'text', required: true },
  { name: 'email', kind: 'email' }, { name: 'phone', kind: 'tel' },
  { name: 'department_id', kind: 'text' }, { name: 'team_id', kind: 'text' }, { name: 'branch_id', kind: 'text' },
];

/** Creating an account also asks for its password, typed twice. */
export const accountCreateForm: DraftForm = {
  fields: [...fields, { name: 'password', kind: 'password', required: true }, { name: 'password_confirmation', kind: 'password', required: true }],
  schema: AccountCreateSchema,
};

/** Accounts (SPEC §2 /accounts): the list is the kit's; the form screen is its own (seats, password, extension) over the kit's draft. */
export const accountEntity = defineEntity<Account>({
  key: 'account', ns: ACCOUNTS_NS, paths: paths.account, permission: PERM.account, schema: AccountUpdateSchema, fields,
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
