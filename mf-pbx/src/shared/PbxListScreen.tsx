import type { ReactNode } from 'react';
import { Button, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { DESTINATION_FILTER_OPTIONS } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import type { PbxEntity } from './entity';
import { useDeletePbx, useDescribeDestination, usePbxList } from './pbx.api';
import { PBX_NS } from './pbx.i18n';
import { PbxFormDialog, useDialogParam } from './PbxFormDialog';

type Row = { id: number };

/** data-testid of the destination-type filter (SPEC §3 filter_action). */
export const DESTINATION_FILTER_TESTID = 'destination-filter';

/**
 * The list of any PBX area: search, paging (10), optional destination-type filter, edit (page or
 * dialog), delete with confirmation (a refusal such as "Đang được dùng bởi …" shows as an error toast).
 * `toolbar` adds actions beside the search (e.g. the inbound import).
 */
export function PbxListScreen<T extends Row>({ entity, toolbar }: { entity: PbxEntity<T>; toolbar?: ReactNode }) {
  const { t } = useTranslation([entity.ns, PBX_NS]);
  const { can } = useCan();
  const list = useListParams(entity.destinationFilter ? ['filter_action'] : []);
  const query = usePbxList<T>(entity.resource, { page: list.page, search: list.search, filter_action: list.filters.filter_action });
  const remove = useDeletePbx(entity.resource);
  const describe = useDescribeDestination(t(`${PBX_NS}:hangUp`));
  const dialog = useDialogParam();
  const ctx = { t: (k: string, o?: Record<string, unknown>) => t(k.includes(':') ? k : `${entity.ns}:${k}`, o), describe };

  const del = useConfirmDelete<T>({
    remove: (r) => remove.mutateAsync(r.id),
    title: t('confirmDeleteTitle'),
    message: (r) => t('confirmDelete', { name: entity.rowName(r) }),
    success: t('deleted'),
  });

  const columns: Column<T>[] = [
    ...entity.columns.map((c) => ({ key: c.key, header: t(`fields.${c.header}`), render: (r: T) => c.render(r, ctx) })),
    {
      key: 'actions', header: '', render: (r) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(entity.perm.edit) && (entity.dialog
            ? <Button size="small" onClick={() => dialog.open(entity.detailKey?.(r) ?? String(r.id))} data-testid="edit">{t('edit', { ns: 'ui' })}</Button>
            : <LinkButton to={entity.paths.edit(r.id)} size="small" data-testid="edit">{t('edit', { ns: 'ui' })}</LinkButton>)}
          {can(entity.perm.delete) && <Button size="small" onClick={() => del.ask(r)} data-testid="delete">{t('delete', { ns: 'ui' })}</Button>}
        </span>
      ),
    },
  ];

  const filter = entity.destinationFilter && (
    <Select value={list.filters.filter_action} onChange={(_, d) => list.setFilter('filter_action', d.value)}
      aria-label={t(`${PBX_NS}:destinationFilter`)} data-testid={DESTINATION_FILTER_TESTID}>
      {DESTINATION_FILTER_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
    </Select>
  );

  return (
    <>
      <ListPage
        title={t('listTitle')}
        testId={`${entity.key}-list`}
        query={query}
        columns={columns}
        rowKey={(r) => r.id}
        list={list}
        addTo={can(entity.perm.create) ? entity.paths.add : undefined}
        addLabel={t('add')}
        searchPlaceholder={t('searchPlaceholder')}
        emptyMessage={t('empty')}
        filters={(filter || toolbar) && <>{filter}{toolbar}</>}
      />
      {del.dialog}
      {entity.dialog && dialog.value && can(dialog.value === 'new' ? entity.perm.create : entity.perm.edit) && (
        <PbxFormDialog key={dialog.value} entity={entity} id={dialog.value === 'new' ? null : dialog.value} onClose={dialog.close} />
      )}
    </>
  );
}
