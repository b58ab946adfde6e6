import { Badge, Button, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_STATUSES, PERM, routes, type Customer } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { LinkButton, ListPage, useConfirmDelete, useListParams, type Column } from '@tongdai/ui';
import { NS } from '../i18n';
import { CustomerLabelFilters, LABEL_KEYS } from '../org/CustomerLabels';
import { useCustomerList, useDeleteCustomer } from './customers.api';

const statusLabel = (v: string) => CUSTOMER_STATUSES.find((s) => s.value === v)?.label ?? v;

export default function CustomerListScreen() {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const list = useListParams(['status', ...LABEL_KEYS]);
  const query = useCustomerList({ page: list.page, search: list.search, ...list.filters, status: list.filters.status });
  const remove = useDeleteCustomer();

  const del = useConfirmDelete<Customer>({
    remove: (c) => remove.mutateAsync(c.id),
    title: t('customer.confirmDeleteTitle'),
    message: (c) => t('customer.confirmDelete', { name: c.name }),
    success: t('customer.deleted'),
  });

  const columns: Column<Customer>[] = [
    { key: 'code', header: t('customer.fields.code'), render: (c) => c.code || '—' },
    { key: 'name', header: t('customer.fields.name'), render: (c) => <span data-testid="customer-name">{c.name}</span> },
    { key: 'phone', header: t('customer.fields.phone'), render: (c) => <span data-testid="customer-phone">{displayPhone(c.phone)}</span> },
    { key: 'email', header: t('customer.fields.email'), render: (c) => c.email || '—' },
    { key: 'status', header: t('customer.fields.status'), render: (c) => <Badge appearance="tint">{statusLabel(c.status)}</Badge> },
    {
      key: 'actions', header: '', render: (c) => (
        <span style={{ display: 'flex', gap: 4 }}>
          {can(PERM.customer.edit) && <LinkButton to={routes.customer.edit(c.id)} size="small" data-testid="edit">{t('edit', { ns: 'ui' })}</LinkButton>}
          {can(PERM.customer.delete) && <Button size="small" onClick={() => del.ask(c)} data-testid="delete">{t('delete', { ns: 'ui' })}</Button>}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title={t('customer.listTitle')}
        testId="customer-list"
        query={query}
        columns={columns}
        rowKey={(c) => c.id}
        list={list}
        addTo={can(PERM.customer.create) ? routes.customer.add() : undefined}
        addLabel={t('customer.add')}
        searchPlaceholder={t('customer.searchPlaceholder')}
        emptyMessage={t('customer.empty')}
        filters={
          <>
            <Select value={list.filters.status} onChange={(_, d) => list.setFilter('status', d.value)} aria-label={t('customer.fields.status')} data-testid="status-filter">
              <option value="">{t('customer.allStatuses')}</option>
              {CUSTOMER_STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
            </Select>
            <CustomerLabelFilters values={list.filters} onChange={list.setFilter} />
          </>
        }
      />
      {del.dialog}
    </>
  );
}
