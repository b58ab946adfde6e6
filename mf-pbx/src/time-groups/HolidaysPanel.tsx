import { useState } from 'react';
import {
  Badge, Button, Caption1, Card, Link as FluentLink, Spinner, Subtitle1, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { HOLIDAY_SOURCES, PERM, type Holiday, type HolidayOverride, type HolidaySource } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { EmptyState, EntityFormDialog, ErrorState, formatViDate, viWeekday, useApiError, useConfirmDelete, useCrudQueries, type Draft } from '@tongdai/ui';
import { holidayOverrides, useHolidayYear } from './holidays.api';
import { holidayOverrideEntity } from './holidays.entity';
import { TIME_GROUPS_NS } from './i18n';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: '8px' },
  head: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  intro: { color: tokens.colorNeutralForeground3 },
  struck: { textDecorationLine: 'line-through', color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: '12px', whiteSpace: 'nowrap' },
  // A day's row is not a control (its links are): no hover shade, under which the links' and the struck
  // name's colours fell to 4.17:1 in dark mode (axe, an a11y walk whose pointer rested on the table).
  row: { ':hover': { backgroundColor: tokens.colorTransparentBackground }, ':active': { backgroundColor: tokens.colorTransparentBackground } },
});

/** The columns and their widths (the name takes the rest). */
const COLUMNS = [['date', '110px'], ['weekday', '100px'], ['name', undefined], ['lunar', '130px'], ['source', '100px']] as const;
const SOURCE_COLORS: Record<HolidaySource, 'brand' | 'success' | 'warning' | 'subtle'> = { computed: 'subtle', added: 'success', renamed: 'brand', removed: 'warning' };

/**
 * Vietnam's public holidays of a year on /time-groups (issue 39): the coming year first, each day
 * with its date, weekday, lunar date and where it comes from; an admin with timegroup.edit adds a
 * day, renames or removes one of the law, and undoes an override.
 */
export function HolidaysPanel() {
  const s = useStyles();
  const { t } = useTranslation(TIME_GROUPS_NS);
  const { can } = useCan();
  const edit = can(PERM.timegroup.edit);
  const [year, setYear] = useState<number | null>(null);
  const query = useHolidayYear(year);
  const loadError = useApiError(query.error);
  const shown = query.data?.year ?? year;
  const [dialog, setDialog] = useState<{ id: number | null; prefill?: Draft } | null>(null);
  const { save, remove } = useCrudQueries<HolidayOverride>(holidayOverrides);

  const removeDay = useConfirmDelete<Holiday>({
    remove: (h) => save.mutateAsync({ date: h.date, action: 'remove', name: '' }),
    title: t('holiday.removeTitle'),
    message: (h) => t('holiday.removeMessage', { date: formatViDate(h.date), name: h.name }),
    success: t('holiday.removed'),
  });
  const undo = useConfirmDelete<Holiday>({
    remove: (h) => remove.mutateAsync(h.override_id!),
    title: t('holiday.undoTitle'),
    message: (h) => t('holiday.undoMessage', { date: formatViDate(h.date) }),
    success: t('holiday.undone'),
  });

  const lunar = (h: Holiday) => (h.lunar ? t(h.lunar.leap ? 'holiday.lunarLeap' : 'holiday.lunar', { day: h.lunar.day, month: h.lunar.month }) : '');
  const actions = (h: Holiday) => (
    <span className={s.actions}>
      {h.source === 'computed' ? (
        <>
          <FluentLink as="button" onClick={() => setDialog({ id: null, prefill: { date: h.date, action: 'rename', name: h.name } })} data-testid="holiday-rename">{t('holiday.rename')}</FluentLink>
          <FluentLink as="button" onClick={() => removeDay.ask(h)} data-testid="holiday-remove">{t('holiday.remove')}</FluentLink>
        </>
      ) : (
        <>
          {h.source !== 'removed' && <FluentLink as="button" onClick={() => setDialog({ id: h.override_id })} data-testid="holiday-edit">{t('holiday.edit')}</FluentLink>}
          <FluentLink as="button" onClick={() => undo.ask(h)} data-testid="holiday-undo">{t('holiday.undo')}</FluentLink>
        </>
      )}
    </span>
  );

  return (
    <Card className={s.card} data-testid="holidays" data-year={shown ?? ''}>
      <div className={s.head}>
        <Subtitle1 as="h2" className={s.grow} data-testid="holidays-title">{shown ? t('holiday.title', { year: shown }) : ''}</Subtitle1>
        {shown && (
          <>
            <Button size="small" onClick={() => setYear(shown - 1)} data-testid="holidays-previous">{t('holiday.previousYear')}</Button>
            <Button size="small" onClick={() => setYear(shown + 1)} data-testid="holidays-next">{t('holiday.nextYear')}</Button>
          </>
        )}
        {edit && <Button size="small" appearance="primary" onClick={() => setDialog({ id: null, prefill: { action: 'add' } })} data-testid="holiday-add">{t('holiday.add')}</Button>}
      </div>
      <Caption1 className={s.intro}>{t('holiday.intro')}</Caption1>
      {query.isPending ? <Spinner size="tiny" /> : query.isError ? <ErrorState message={loadError?.message ?? t('holiday.loadFailed')} onRetry={() => void query.refetch()} />
        : !query.data.data.length ? <EmptyState message={t('holiday.empty')} /> : (
          <Table size="small" aria-label={t('holiday.title', { year: shown })}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map(([c, width]) => <TableHeaderCell key={c} style={{ width }}>{t(`holiday.columns.${c}`)}</TableHeaderCell>)}
                {edit && <TableHeaderCell style={{ width: '190px' }}>{t('holiday.columns.actions')}</TableHeaderCell>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {query.data.data.map((h) => (
                <TableRow key={h.date} className={s.row} data-testid="holiday-row" data-date={h.date} data-source={h.source}>
                  <TableCell data-testid="holiday-date">{formatViDate(h.date)}</TableCell>
                  <TableCell>{viWeekday(h.date)}</TableCell>
                  <TableCell data-testid="holiday-name" className={h.source === 'removed' ? s.struck : undefined}>{h.name}</TableCell>
                  <TableCell data-testid="holiday-lunar">{lunar(h)}</TableCell>
                  <TableCell><Badge appearance="tint" color={SOURCE_COLORS[h.source]} data-testid="holiday-source">{HOLIDAY_SOURCES[h.source]}</Badge></TableCell>
                  {edit && <TableCell>{actions(h)}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      {dialog && <EntityFormDialog entity={holidayOverrideEntity} id={dialog.id} prefill={dialog.prefill} onClose={() => setDialog(null)} />}
      {removeDay.dialog}
      {undo.dialog}
    </Card>
  );
}
