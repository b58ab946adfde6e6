import { Badge, Button, Caption1, Link as FluentLink, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOLIDAY_MODE_LABELS, PBX_RESOURCES, PERM, paths, type TimeGroup, type TimeRange } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { ListPage, useConfirmDelete, useCrudQueries, useDialogParam, useListParams, type Column } from '@tongdai/ui';
import { pbxResource } from '../shared/entity';
import { AddRangeDialog } from './AddRangeDialog';
import { HolidaysPanel } from './HolidaysPanel';
import { TIME_GROUPS_NS } from './i18n';
import { useDeleteRange } from './time-groups.api';
import { describeRange } from './timeRange';

const useStyles = makeStyles({
  ranges: { display: 'flex', flexDirection: 'column', gap: '2px', padding: '6px 0', whiteSpace: 'normal' },
  range: { display: 'flex', gap: '8px', alignItems: 'baseline', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3, display: 'block' },
  holidays: { marginTop: '16px' },
  mode: { marginTop: '4px' },
});

type RangeRow = { group: TimeGroup; range: TimeRange };
const timeGroups = pbxResource(PBX_RESOURCES.timeGroup);

/** /time-groups: each group with its ranges in Vietnamese (edited one by one) and its holiday mode; then the year's public holidays. */
export default function TimeGroupListScreen() {
  const s = useStyles();
  const { t } = useTranslation(TIME_GROUPS_NS);
  const { can } = useCan();
  const list = useListParams();
  const dialog = useDialogParam();
  const { list: query, remove: removeGroup } = useCrudQueries<TimeGroup>(timeGroups, { list: { page: list.page, search: list.search } });
  const removeRange = useDeleteRange();
  const adding = query.data?.data.find((g) => String(g.id) === dialog.value);

  const delGroup = useConfirmDelete<TimeGroup>({
    remove: (g) => removeGroup.mutateAsync(g.id),
    title: t('confirmDeleteTitle'),
    message: (g) => t('confirmDelete', { name: g.name }),
    success: t('deleted'),
  });
  const delRange = useConfirmDelete<RangeRow>({
    remove: (r) => removeRange.mutateAsync({ groupId: r.group.id, detailId: r.range.id }),
    title: t('confirmDeleteRangeTitle'),
    message: (r) => t('confirmDeleteRange', { range: describeRange(r.range), name: r.group.name }),
    success: t('rangeDeleted'),
  });

  const ranges = (g: TimeGroup) => (
    <div className={s.ranges}>
      {!g.ranges.length && <span data-testid="time-range-text">{t('holidaysOnly')}</span>}
      {g.ranges.map((r) => (
        <div key={r.id} className={s.range} data-testid="time-range">
          <span data-testid="time-range-text">{describeRange(r)}</span>
          {can(PERM.timegroup.edit) && (
            <Link to={paths.timeGroup.edit(g.id, r.id)} data-testid="edit-range"><FluentLink as="span">{t('editRange')}</FluentLink></Link>
          )}
          {can(PERM.timegroup.edit) && (g.ranges.length > 1 || g.holiday_mode === 'include') && (
            <FluentLink as="button" onClick={() => delRange.ask({ group: g, range: r })} data-testid="delete-range">{t('deleteRange')}</FluentLink>
          )}
        </div>
      ))}
    </div>
  );

  const columns: Column<TimeGroup>[] = [
    {
      key: 'name', header: t('fields.name'), render: (g) => (
        <span>
          <strong data-testid="row-name">{g.name}</strong>{g.description && <Caption1 className={s.muted}>{g.description}</Caption1>}
          {g.holiday_mode && g.holiday_mode !== 'none' && (
            <Badge className={s.mode} appearance="tint" color={g.holiday_mode === 'exclude' ? 'warning' : 'brand'} data-testid="holiday-mode" data-mode={g.holiday_mode}>{HOLIDAY_MODE_LABELS[g.holiday_mode]}</Badge>
          )}
        </span>
      ),
    },
    { key: 'ranges', header: t('fields.ranges'), render: ranges },
    {
      key: 'actions', header: '', render: (g) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(PERM.timegroup.edit) && <Button size="small" onClick={() => dialog.open(String(g.id))} data-testid="add-range">{t('addRange')}</Button>}
          {can(PERM.timegroup.delete) && <Button size="small" onClick={() => delGroup.ask(g)} data-testid="delete">{t('delete', { ns: 'ui' })}</Button>}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t('listTitle')}
        testId="time-group-list"
        query={query}
        columns={columns}
        rowKey={(g) => g.id}
        list={list}
        addTo={can(PERM.timegroup.create) ? paths.timeGroup.add : undefined}
        addLabel={t('add')}
        searchPlaceholder={t('searchPlaceholder')}
        emptyMessage={t('empty')}
      />
      <div className={s.holidays}><HolidaysPanel /></div>
      {adding && <AddRangeDialog key={adding.id} group={adding} onClose={dialog.close} />}
      {delGroup.dialog}
      {delRange.dialog}
    </>
  );
}
