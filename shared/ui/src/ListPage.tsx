import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Button, Input, Table, TableBody, TableCell, TableCellLayout, TableHeader, TableHeaderCell, TableRow, Text, Title2, makeStyles, tokens,
} from '@fluentui/react-components';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Paged } from '@tongdai/contracts';
import { LinkButton } from './LinkButton';
import { useApiError } from './useApiError';
import { useUrlParams } from './useUrlParams';
import { urlRange } from './entity/dateRangeFilter';
import { EmptyState, ErrorState, LoadingState } from './States';
import { UI_NS } from './i18n';
import { tableWidths } from './tableWidths';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** A CSS width (the table lays its columns out fixed: the others share what is left). */
  width?: string;
}


const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '12px', flexWrap: 'wrap' },
  toolbar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  pager: { display: 'flex', gap: '8px', alignItems: 'center', justifyContent: 'flex-end' },
  // A list wider than the screen scrolls sideways inside its card; its cells are never cut.
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '8px', overflowX: 'auto' },
});

/** Page and search kept in the URL, so reload and back keep the user's place. */
export function useListParams(extra: string[] = []) {
  // (The debounced search must not undo a change made meanwhile, e.g. a dialog opened with ?dialog=.)
  const [params, setParams] = useUrlParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('search') ?? '';
  // The kit's date range (?range=) also read from ?from=&to=; a new range replaces those.
  const filters = Object.fromEntries(extra.map((k) => [k, k === 'range' ? urlRange(params) : params.get(k) ?? '']));
  const update = (next: Record<string, string | number>) =>
    setParams((p) => {
      if ('range' in next && extra.includes('range')) ['from', 'to'].forEach((k) => p.delete(k));
      for (const [k, v] of Object.entries(next)) v === '' || v === 1 && k === 'page' ? p.delete(k) : p.set(k, String(v));
    }, { replace: true });
  return { page, search, filters, setPage: (n: number) => update({ page: n }), setSearch: (s: string) => update({ search: s, page: 1 }), setFilter: (k: string, v: string) => update({ [k]: v, page: 1 }) };
}

export interface ListPageProps<T> {
  title: string;
  testId: string;
  query: UseQueryResult<Paged<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  list: ReturnType<typeof useListParams>;
  addTo?: string;
  /** Instead of addTo: "Thêm" opens the add dialog on this list (useDialogParam), its filters kept. */
  onAdd?: () => void;
  addLabel?: string;
  filters?: ReactNode;
  searchPlaceholder?: string;
  emptyMessage?: string;
  /** Shown in the empty state of an unfiltered list (e.g. a button to add the first item). */
  emptyAction?: ReactNode;
  /**
   * What a row opens under itself across the whole table (a call's recording player), or
   * nothing: null, undefined or false add no row.
   */
  rowDetail?: (row: T) => ReactNode;
  /** A filter holds the list (its value must not be sent, it says why beside itself): no table, no request's state. */
  held?: boolean;
}

/** The one list screen: title, search, filters, add, table, pager, and loading/empty/error states. */
export function ListPage<T>(p: ListPageProps<T>) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const [draft, setDraft] = useState(p.list.search);
  // The search the box itself put in the URL: when the router shows it, the box already holds it or
  // more — the user typed on (or cleared the box) while a loaded page's router was slow to show it,
  // and taking the URL's value then undid that typing (the do-not-call list kept a cleared search, in
  // CI). Only a search that came from elsewhere (back, a link) replaces what is in the box.
  const sent = useRef<string[]>([]);
  useEffect(() => {
    const mine = sent.current.indexOf(p.list.search);
    if (mine >= 0) sent.current.splice(0, mine + 1);
    else {
      sent.current = [];
      setDraft(p.list.search);
    }
  }, [p.list.search]);
  // Against the URL's search as it is now (not as it was when the box last changed), so a change
  // typed before the router showed the previous one is still applied after it.
  useEffect(() => {
    const q = draft.trim();
    const h = setTimeout(() => {
      if (q === p.list.search) return;
      sent.current.push(q);
      p.list.setSearch(q);
    }, 300);
    return () => clearTimeout(h);
  }, [draft, p.list.search]);
  const error = useApiError(p.query.error);
  const data = p.query.data;
  const pages = data ? Math.max(1, Math.ceil(data.meta.total / data.meta.per_page)) : 1;
  // The table lays its columns out fixed: on a narrow screen a list of many columns would squeeze each one
  // until its text is cut ("23:21:1", "Trả lờ") or its header ran over three lines; below this width the card scrolls.
  const sized = tableWidths(p.columns);

  return (
    <section className={s.page} data-testid={p.testId}>
      <div className={s.head}>
        <Title2 as="h1">{p.title}</Title2>
        {p.onAdd ? <Button appearance="primary" onClick={p.onAdd} data-testid="add">{p.addLabel ?? t('add')}</Button>
          : p.addTo && <LinkButton to={p.addTo} appearance="primary" data-testid="add">{p.addLabel ?? t('add')}</LinkButton>}
      </div>
      <div className={s.toolbar}>
        <Input value={draft} onChange={(_, d) => setDraft(d.value)} placeholder={p.searchPlaceholder ?? t('search')} aria-label={t('search')} data-testid="search" />
        {p.filters}
      </div>
      {!p.held && <div className={s.card}>
        {p.query.isPending ? <LoadingState /> : p.query.isError ? (
          <ErrorState message={error?.message ?? ''} onRetry={() => void p.query.refetch()} />
        ) : data && data.data.length === 0 ? (
          p.list.search || Object.values(p.list.filters).some(Boolean)
            ? <EmptyState message={t('emptySearch')} />
            : <EmptyState message={p.emptyMessage ?? t('empty')} action={p.emptyAction || undefined} />
        ) : (
          <Table aria-label={p.title} data-testid="list-table" style={{ minWidth: sized.minWidth }}>
            <TableHeader>
              <TableRow>{p.columns.map((c, i) => <TableHeaderCell key={c.key} style={sized.widths[i] ? { width: sized.widths[i] } : undefined}>{c.header}</TableHeaderCell>)}</TableRow>
            </TableHeader>
            <TableBody>
              {data?.data.map((row) => {
                const detail = p.rowDetail?.(row);
                return (
                  <Fragment key={p.rowKey(row)}>
                    <TableRow data-testid="list-row">
                      {p.columns.map((c) => <TableCell key={c.key}><TableCellLayout truncate>{c.render(row)}</TableCellLayout></TableCell>)}
                    </TableRow>
                    {detail != null && detail !== false && (
                      <TableRow data-testid="list-row-detail">
                        <TableCell colSpan={p.columns.length}>{detail}</TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        )}
      </div>}
      {!p.held && data && data.meta.total > 0 && (
        <div className={s.pager}>
          <Text data-testid="pager-status">{t('pageOf', { page: data.meta.page, pages, total: data.meta.total })}</Text>
          <Button disabled={data.meta.page <= 1} onClick={() => p.list.setPage(data.meta.page - 1)} data-testid="prev-page">{t('previous')}</Button>
          <Button disabled={data.meta.page >= pages} onClick={() => p.list.setPage(data.meta.page + 1)} data-testid="next-page">{t('next')}</Button>
        </div>
      )}
    </section>
  );
}
