import { useState, type ReactNode } from 'react';
import { Button, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { UI_NS } from '../i18n';
import { LinkButton } from '../LinkButton';
import { ListPage, useListParams, type Column } from '../ListPage';
import { useConfirmDelete } from '../useConfirmDelete';
import { EntityFormDialog, useDialogParam } from './EntityFormDialog';
import { entityKey, fieldKey, type EntityDef, type EntityExport, type ExportFormat, type Translate } from './types';
import { useCrudQueries } from './useCrudQueries';

export interface EntityListScreenProps<T extends { id: number }> {
  entity: EntityDef<T>;
  /** Actions beside the search (e.g. an import). */
  toolbar?: ReactNode;
  /** More row actions before edit/delete (each gates itself). */
  rowActions?: (row: T) => ReactNode;
  /** The actions column's width when rowActions are given (their buttons with edit/delete): never cut. */
  rowActionsWidth?: string;
  /** A full-width row under a row while it returns something (a call's recording player); see ListPage. */
  rowDetail?: (row: T) => ReactNode;
  /** Hides the delete of some rows (e.g. the built-in super-admin role). */
  canDelete?: (row: T) => boolean;
  /** Replaces the form dialog of ?dialog=new (e.g. an upload) for a dialog entity. */
  createDialog?: (close: () => void) => ReactNode;
}

/**
 * The list of any entity: search, filters, paging (10, ?page= in the URL), edit (page or dialog)
 * and delete with confirmation gated by permission, an empty state with a button to add the
 * first item, and export where the entity allows.
 */
export function EntityListScreen<T extends { id: number }>({ entity, toolbar, rowActions, rowActionsWidth, rowDetail, canDelete, createDialog }: EntityListScreenProps<T>) {
  const { t } = useTranslation([entity.ns, UI_NS]);
  const k = (key: string) => entityKey(entity, key);
  const { can: canDo } = useCan();
  // An action the entity does not have (a read-only report) is nobody's, not even the super-admin's.
  const can = (permission: string | undefined) => permission !== undefined && canDo(permission);
  const navigate = useNavigate();
  const list = useListParams(entity.filters?.map((f) => f.key) ?? []);
  // A filter's value the list must not send (a reversed range in the URL): nothing asked, the filter says why.
  const held = entity.filters?.some((f) => f.held?.(list.filters[f.key] ?? '')) ?? false;
  const { list: query, remove } = useCrudQueries<T>(entity.api, { list: held ? undefined : { page: list.page, search: list.search, ...list.filters } });
  const dialog = useDialogParam();
  const ctx = { t: t as Translate };
  const edit = entity.paths.dialog;

  const del = useConfirmDelete<T>({
    remove: (r) => remove.mutateAsync(r.id),
    title: t(k('confirmDeleteTitle')),
    message: (r) => t(k('confirmDelete'), { name: entity.rowName(r) }),
    success: t(k('deleted')),
  });

  const hasActions = !!rowActions || can(entity.permission.edit) || can(entity.permission.delete);
  const columns: Column<T>[] = [
    ...entity.columns.map((c) => ({ key: c.key, header: t(fieldKey(entity, c.header)), render: (r: T) => c.render(r, ctx), width: c.width })),
  ];
  // The row's own buttons never cut (a list of seven columns cut "Xoá" at 1280 px): edit and delete
  // (small buttons, 64 px at least) take their width; lists with more actions of their own share.
  const buttons = (can(entity.permission.edit) ? 1 : 0) + (can(entity.permission.delete) ? 1 : 0);
  if (hasActions) columns.push(
    {
      key: 'actions', header: '', width: rowActions ? rowActionsWidth : buttons ? `${buttons * 68 + 16}px` : undefined, render: (r) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {rowActions?.(r)}
          {can(entity.permission.edit) && (edit
            ? <Button size="small" onClick={() => dialog.open(entity.detailKey?.(r) ?? String(r.id))} data-testid="edit">{t('edit', { ns: UI_NS })}</Button>
            : <LinkButton to={entity.paths.edit(r.id)} size="small" data-testid="edit">{t('edit', { ns: UI_NS })}</LinkButton>)}
          {can(entity.permission.delete) && (canDelete?.(r) ?? true) && (
            <Button size="small" onClick={() => del.ask(r)} data-testid="delete">{t('delete', { ns: UI_NS })}</Button>
          )}
        </span>
      ),
    },
  );

  const mayCreate = can(entity.permission.create);
  // Add in a dialog on this list: opened through the kit's one way to change the URL, so the list's
  // filters stay (a link to ?dialog=new dropped them) and a change pending from the previous dialog's
  // close cannot undo the open (surveys.spec: a "Thêm câu hỏi" right after a save opened nothing, 3 of
  // the last 8 whole runs).
  const addInDialog = edit && entity.paths.add === entity.paths.edit('new');
  const add = () => (addInDialog ? dialog.open('new') : navigate(entity.paths.add));
  const filters = entity.filters?.map(({ key, Control }) => <Control key={key} value={list.filters[key]} onChange={(v) => list.setFilter(key, v)} />);
  const exporter = entity.export && can(entity.export.permission) && <ExportButton spec={entity.export} t={(x) => t(k(x))} />;

  return (
    <>
      <ListPage
        title={t(k('listTitle'))}
        testId={`${entity.key}-list`}
        query={query}
        columns={columns}
        rowKey={(r) => r.id}
        rowDetail={rowDetail}
        list={list}
        held={held}
        addTo={mayCreate && !addInDialog ? entity.paths.add : undefined}
        onAdd={mayCreate && addInDialog ? add : undefined}
        addLabel={t(k('add'))}
        searchPlaceholder={t(k('searchPlaceholder'))}
        emptyMessage={t(k('empty'))}
        emptyAction={mayCreate && <Button appearance="primary" onClick={add} data-testid="empty-add">{t(k('add'))}</Button>}
        filters={(filters || toolbar || exporter) && <>{filters}{toolbar}{exporter}</>}
      />
      {del.dialog}
      {edit && dialog.value && can(dialog.value === 'new' ? entity.permission.create : entity.permission.edit) && (
        dialog.value === 'new' && createDialog ? createDialog(dialog.close)
          : <EntityFormDialog key={dialog.value} entity={entity} id={dialog.value === 'new' ? null : entity.detailKey ? dialog.value : /^\d+$/.test(dialog.value) ? Number(dialog.value) : null} onClose={dialog.close} />
      )}
    </>
  );
}

function ExportButton({ spec, t }: { spec: EntityExport; t: (key: string) => string }) {
  const { t: ui } = useTranslation(UI_NS);
  const [busy, setBusy] = useState(false);
  const [format, setFormat] = useState<ExportFormat | undefined>(spec.formats?.[0]);
  const run = async () => {
    setBusy(true);
    try {
      await spec.run(format);
      notify('success', t(spec.done ?? 'exported'));
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setBusy(false);
    }
  };
  const button = <Button onClick={() => void run()} disabled={busy} data-testid="export">{t(spec.label ?? 'export')}</Button>;
  if (!spec.formats?.length) return button;
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Select value={format} onChange={(_, d) => setFormat(d.value as ExportFormat)} disabled={busy} aria-label={ui('exportFormat')} data-testid="export-format">
        {spec.formats.map((f) => <option key={f} value={f}>{ui(`formats.${f}`)}</option>)}
      </Select>
      {button}
    </span>
  );
}
