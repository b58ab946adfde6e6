import { useState } from 'react';
import { Badge, Button, Select } from '@fluentui/react-components';
import { DeleteRegular, EditRegular, KeyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_STATUSES, PERM, roleLabel, type Account } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import { useAllRoles } from '../roles/roles.api';
import { useAccountList, useDeleteAccount, useDepartments } from './accounts.api';
import { ACCOUNTS_NS } from './i18n';
import { PasswordDialog } from './PasswordDialog';

const statusLabel = (v: string) => ACCOUNT_STATUSES.find((s) => s.value === v)?.label ?? v;

export default function AccountListScreen() {
  const { t } = useTranslation(ACCOUNTS_NS);
  const { can } = useCan();
  const list = useListParams(['role_id', 'status']);
  const query = useAccountList({ page: list.page, search: list.search, role_id: list.filters.role_id, status: list.filters.status });
  const roles = useAllRoles(can(PERM.role.view));
  const departments = useDepartments();
  const deptName = (id: number | null) => departments.find((d) => d.id === id)?.name ?? '—';
  const remove = useDeleteAccount();
  const [pwFor, setPwFor] = useState<Account | null>(null);

  const del = useConfirmDelete<Account>({
    remove: (a) => remove.mutateAsync(a.id),
    title: t('confirmDeleteTitle'),
    message: (a) => t('confirmDelete', { name: `${a.full_name} (${a.username})` }),
    success: t('deleted'),
  });

  const columns: Column<Account>[] = [
    { key: 'full_name', header: t('fields.full_name'), render: (a) => <span data-testid="account-name">{a.full_name}</span> },
    { key: 'username', header: t('fields.username'), render: (a) => <span data-testid="account-username">{a.username}</span> },
    { key: 'role', header: t('fields.role'), render: (a) => <span data-testid="account-role">{a.role_label ?? '—'}</span> },
    { key: 'department', header: t('fields.department_id'), render: (a) => deptName(a.department_id) },
    { key: 'extension', header: t('fields.extension_code'), render: (a) => <span data-testid="account-extension">{a.extension_code || '—'}</span> },
    { key: 'phone', header: t('fields.phone'), render: (a) => a.phone || '—' },
    {
      key: 'status', header: t('fields.status'), render: (a) => (
        <Badge appearance="tint" color={a.status === 'active' ? 'success' : 'danger'} data-testid="account-status">{statusLabel(a.status)}</Badge>
      ),
    },
    {
      key: 'actions', header: '', render: (a) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(PERM.account.edit) && <LinkButton to={`/account/edit/${a.id}`} size="small" icon={<EditRegular />} aria-label={t('edit', { ns: 'ui' })} title={t('edit', { ns: 'ui' })} data-testid="edit" />}
          {can(PERM.account.changePassword) && <Button size="small" icon={<KeyRegular />} aria-label={t('changePassword')} title={t('changePassword')} onClick={() => setPwFor(a)} data-testid="change-password" />}
          {can(PERM.account.delete) && <Button size="small" icon={<DeleteRegular />} aria-label={t('delete', { ns: 'ui' })} title={t('delete', { ns: 'ui' })} onClick={() => del.ask(a)} data-testid="delete" />}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t('listTitle')}
        testId="account-list"
        query={query}
        columns={columns}
        rowKey={(a) => a.id}
        list={list}
        addTo={can(PERM.account.create) ? '/account/add' : undefined}
        addLabel={t('add')}
        searchPlaceholder={t('searchPlaceholder')}
        emptyMessage={t('empty')}
        filters={
          <>
            {roles.data && (
              <Select value={list.filters.role_id} onChange={(_, d) => list.setFilter('role_id', d.value)} aria-label={t('fields.role')} data-testid="role-filter">
                <option value="">{t('allRoles')}</option>
                {roles.data.map((r) => <option key={r.id} value={r.id}>{roleLabel(r)}</option>)}
              </Select>
            )}
            <Select value={list.filters.status} onChange={(_, d) => list.setFilter('status', d.value)} aria-label={t('fields.status')} data-testid="status-filter">
              <option value="">{t('allStatuses')}</option>
              {ACCOUNT_STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
            </Select>
          </>
        }
      />
      {del.dialog}
      <PasswordDialog
        open={!!pwFor}
        title={`${t('changePassword')} · ${pwFor?.username ?? ''}`}
        onSubmit={({ password, password_confirmation }) => tenantApi().put(`accounts/${pwFor!.id}/password`, { json: { password, password_confirmation } })}
        onClose={() => setPwFor(null)}
      />
    </>
  );
}
