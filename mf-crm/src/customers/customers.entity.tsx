import { Badge } from '@fluentui/react-components';
import { CUSTOMER_STATUSES, CustomerInputSchema, FEATURES, PERM, paths, type Customer } from '@tongdai/contracts';
import { displayPhone, tenantApi } from '@tongdai/platform';
import { CallButton, crudResource, defineEntity, selectFilter } from '@tongdai/ui';
import { NS } from '../i18n';
import { labelFilters } from '../org/CustomerLabels';
import '../org/fieldKinds';

const statusLabel = (v: string) => CUSTOMER_STATUSES.find((s) => s.value === v)?.label ?? v;
const STATUS_OPTIONS = Object.fromEntries(CUSTOMER_STATUSES.map((s) => [s.value, s.label]));

const statusFilter = selectFilter({ key: 'status', ns: NS, label: 'customer.fields.status', all: 'customer.allStatuses', testId: 'status-filter', useOptions: () => CUSTOMER_STATUSES });

export const customers = crudResource({ scope: 'customers', name: 'customers', base: 'customers', client: tenantApi });

/** Click-to-call (issue 15): the softphone dials the customer; the number comes from the API, not this (maybe masked) page. */
export const callCustomer = (c: Customer) => <CallButton request={{ kind: 'customer', customerId: c.id, display: displayPhone(c.phone) }} display={displayPhone(c.phone)} />;

/**
 * Customers (SPEC §2 /customer): the kit's list and form; the form takes the labels of the
 * organisation screens (project, data source, profile status) and keeps the customer's owner.
 */
export const customerEntity = defineEntity<Customer>({
  key: 'customer', ns: NS, prefix: 'customer', paths: paths.customer, permission: PERM.customer, feature: FEATURES.customer,
  schema: CustomerInputSchema, api: customers, rowName: (c) => c.name,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'phone', kind: 'tel', required: true },
    { name: 'status', kind: 'choice', options: STATUS_OPTIONS, placeholder: 'customer.chooseStatus', required: true },
    { name: 'code', kind: 'text' },
    { name: 'email', kind: 'email' },
    { name: 'address', kind: 'text' },
    { name: 'zalo', kind: 'text' },
    { name: 'facebook', kind: 'text' },
    { name: 'is_project', kind: 'ref', source: 'projects' },
    { name: 'is_datasource', kind: 'ref', source: 'data_sources' },
    { name: 'is_status', kind: 'ref', source: 'profile_statuses' },
    { name: 'note', kind: 'textarea' },
    { name: 'user_id', kind: 'kept' },
  ],
  filters: [statusFilter, ...labelFilters],
  columns: [
    { key: 'code', header: 'code', render: (c) => c.code || '—' },
    { key: 'name', header: 'name', render: (c) => <span data-testid="customer-name">{c.name}</span> },
    {
      key: 'phone', header: 'phone',
      render: (c) => <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}><span data-testid="customer-phone">{displayPhone(c.phone)}</span>{callCustomer(c)}</span>,
    },
    { key: 'email', header: 'email', render: (c) => c.email || '—' },
    { key: 'status', header: 'status', render: (c) => <Badge appearance="tint">{statusLabel(c.status)}</Badge> },
  ],
});
