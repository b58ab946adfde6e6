import { useState } from 'react';
import { Button } from '@fluentui/react-components';
import { DeleteRegular, EditRegular, KeyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, SUPER_ADMIN_ROLE, roleLabel, type RoleListRow } from '@tongdai/contracts';
import { notify, tenantApi, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import { PasswordDialog } from '../accounts/PasswordDialog';
import { ROLES_NS } from './i18n';
import { fetchAllRoles, useDeleteRole, usePermissions, useRole, useRoleList } from './roles.api';

export default function RoleListScreen() {
  const { t } = useTranslation(ROLES_NS);
  const { can } = useCan();
  const list = useListParams();
  const query = useRoleList({ page: list.page, search: list.search });
  const catalogue = usePermissions();
  const remove = useDeleteRole();
  const [pwFor, setPwFor] = useState<RoleListRow | null>(null);
  const pwRole = useRole(pwFor?.id ?? null);
  const [exporting, setExporting] = useState(false);

  const del = useConfirmDelete<RoleListRow>({
    remove: (r) => remove.mutateAsync(r.id),
    title: t('confirmDeleteTitle'),
    message: (r) => t('confirmDelete', { name: r.name }),
    success: t('deleted'),
  });

  const exportAll = async () => {
    setExporting(true);
    try {
      const { exportRoles } = await import('./exportRoles');
      await exportRoles(await fetchAllRoles(), catalogue.data ?? []);
      notify('success', t('exported'));
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setExporting(false);
    }
  };

  const total = catalogue.data?.length;
  const columns: Column<RoleListRow>[] = [
    { key: 'name', header: t('fields.name'), render: (r) => <span data-testid="role-name">{r.name}</span> },
    { key: 'display_name', header: t('fields.display_name'), render: (r) => <span data-testid="role-label">{roleLabel(r)}</span> },
    { key: 'description', header: t('fields.description'), render: (r) => r.description || '—' },
    // super-admin holds every permission whatever the table says (SPEC §6).
    { key: 'permissions', header: t('fields.permissionsCount'), render: (r) => <span data-testid="role-permissions">{r.name === SUPER_ADMIN_ROLE && total ? total : r.permissions.length}</span> },
    { key: 'users', header: t('fields.usersCount'), render: (r) => <span data-testid="role-users">{r.users_count}</span> },
    {
      key: 'actions', header: '', render: (r) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(PERM.role.edit) && <LinkButton to={`/role/edit/${r.id}`} size="small" icon={<EditRegular />} aria-label={t('edit', { ns: 'ui' })} title={t('edit', { ns: 'ui' })} data-testid="edit" />}
          {can(PERM.role.changePassword) && <Button size="small" icon={<KeyRegular />} aria-label={t('changePassword')} title={t('changePassword')} onClick={() => setPwFor(r)} data-testid="change-password" />}
          {can(PERM.role.delete) && r.name !== SUPER_ADMIN_ROLE && <Button size="small" icon={<DeleteRegular />} aria-label={t('delete', { ns: 'ui' })} title={t('delete', { ns: 'ui' })} onClick={() => del.ask(r)} data-testid="delete" />}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t('listTitle')}
        testId="role-list"
        query={query}
        columns={columns}
        rowKey={(r) => r.id}
        list={list}
        addTo={can(PERM.role.create) ? '/role/add' : undefined}
        addLabel={t('add')}
        searchPlaceholder={t('searchPlaceholder')}
        emptyMessage={t('empty')}
        filters={can(PERM.role.export) && <Button onClick={() => void exportAll()} disabled={exporting} data-testid="export">{t('export')}</Button>}
      />
      {del.dialog}
      <PasswordDialog
        open={!!pwFor && !!pwRole.data}
        title={`${t('changePassword')} · ${pwFor?.name ?? ''}`}
        users={pwRole.data?.users ?? []}
        onSubmit={(d) => tenantApi().put(`role/${pwFor!.id}/password`, { json: d })}
        onClose={() => setPwFor(null)}
      />
    </>
  );
}
