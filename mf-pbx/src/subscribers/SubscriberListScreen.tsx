import { Button } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PERM, type Subscriber } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import { SUBSCRIBERS_NS } from './i18n';
import { subscriberPaths } from './subscribers.routes';
import { useDeleteSubscriber, useSubscriberList } from './subscribers.api';

const dateTime = new Intl.DateTimeFormat('vi-VN', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export default function SubscriberListScreen() {
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const { can } = useCan();
  const list = useListParams();
  const query = useSubscriberList({ page: list.page, search: list.search });
  const remove = useDeleteSubscriber();

  const del = useConfirmDelete<Subscriber>({
    remove: (s) => remove.mutateAsync(s.id),
    title: t('confirmDeleteTitle'),
    message: (s) => t('confirmDelete', { extension: s.extension, name: s.display_name }),
    success: t('deleted'),
  });

  const columns: Column<Subscriber>[] = [
    { key: 'extension', header: t('fields.extension'), render: (s) => <strong data-testid="subscriber-extension">{s.extension}</strong> },
    { key: 'display_name', header: t('fields.display_name'), render: (s) => <span data-testid="subscriber-name">{s.display_name}</span> },
    { key: 'user', header: t('fields.user_id'), render: (s) => <span data-testid="subscriber-user">{s.user_name ?? '—'}</span> },
    { key: 'created_at', header: t('fields.created_at'), render: (s) => dateTime.format(new Date(s.created_at)) },
    {
      key: 'actions', header: '', render: (s) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(PERM.subscriber.edit) && <LinkButton to={subscriberPaths.edit(s.id)} size="small" data-testid="edit">{t('edit', { ns: 'ui' })}</LinkButton>}
          {can(PERM.subscriber.delete) && <Button size="small" onClick={() => del.ask(s)} data-testid="delete">{t('delete', { ns: 'ui' })}</Button>}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t('listTitle')}
        testId="subscriber-list"
        query={query}
        columns={columns}
        rowKey={(s) => s.id}
        list={list}
        addTo={can(PERM.subscriber.create) ? subscriberPaths.add() : undefined}
        addLabel={t('add')}
        searchPlaceholder={t('searchPlaceholder')}
        emptyMessage={t('empty')}
      />
      {del.dialog}
    </>
  );
}
