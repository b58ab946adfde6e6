import { Button, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import { useDataFilter, useDeleteOrg, useOrgList } from './org.api';
import { testIdOf, type OrgEntity } from './org.entities';
import { ORG_NS } from './org.i18n';

type Row = { id: number; name: string };

/**
 * The list screen of any organisation entity: search, paging, edit link, delete with
 * confirmation. A refused delete (409) shows the API's reason as an error toast.
 * `onEdit` replaces the edit link (groups edit in a dialog).
 */
export function OrgListScreen({ entity, onEdit }: { entity: OrgEntity<any>; onEdit?: (row: Row) => void }) {
  const { t } = useTranslation(ORG_NS);
  const { can } = useCan();
  const list = useListParams(entity.byDepartment ? ['department_id'] : []);
  const query = useOrgList<Row>(entity.api, { page: list.page, search: list.search, department_id: list.filters.department_id });
  const options = useDataFilter();
  const remove = useDeleteOrg(entity.api);
  const k = entity.key;

  const del = useConfirmDelete<Row>({
    remove: (r) => remove.mutateAsync(r.id),
    title: t(`${k}.confirmDeleteTitle`),
    message: (r) => t(`${k}.confirmDelete`, { name: r.name }),
    success: t(`${k}.deleted`),
  });

  const columns: Column<Row>[] = [
    ...entity.columns.map((c) => ({ key: c.key, header: t(`fields.${c.header}`), render: (r: Row) => c.render(r, t) })),
    {
      key: 'actions', header: '', render: (r) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(entity.perm.edit) && (onEdit
            ? <Button size="small" onClick={() => onEdit(r)} data-testid="edit">{t('edit', { ns: 'ui' })}</Button>
            : <LinkButton to={entity.edit(r.id)} size="small" data-testid="edit">{t('edit', { ns: 'ui' })}</LinkButton>)}
          {can(entity.perm.delete) && <Button size="small" onClick={() => del.ask(r)} data-testid="delete">{t('delete', { ns: 'ui' })}</Button>}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t(`${k}.listTitle`)}
        testId={`${testIdOf(entity)}-list`}
        query={query}
        columns={columns}
        rowKey={(r) => r.id}
        list={list}
        addTo={can(entity.perm.create) ? entity.add : undefined}
        addLabel={t(`${k}.add`)}
        searchPlaceholder={t(`${k}.searchPlaceholder`)}
        emptyMessage={t(`${k}.empty`)}
        filters={entity.byDepartment && (
          <Select value={list.filters.department_id} onChange={(_, d) => list.setFilter('department_id', d.value)} aria-label={t('fields.department_id')} data-testid="department-filter">
            <option value="">{t('team.allDepartments')}</option>
            {options.data?.departments.map((d) => <option key={d.id} value={String(d.id)}>{d.name}</option>)}
          </Select>
        )}
      />
      {del.dialog}
    </>
  );
}
