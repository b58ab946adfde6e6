import { Badge } from '@fluentui/react-components';
import { CUSTOMER_STATUSES, CustomerInputSchema, FEATURES, PERM, paths, type Customer } from '@tongdai/contracts';
import { displayPhone, tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity } from '@tongdai/ui';
import { NS } from '../i18n';
import { labelFilters } from '../org/CustomerLabels';
import { selectFilter } from '../selectFilter';

const statusLabel = (v: string) => CUSTOMER_STATUSES.find((s) => s.value === v)?.label ?? v;

const statusFilter = selectFilter({ key: 'status', ns: NS, label: 'customer.fields.status', all: 'customer.allStatuses', testId: 'status-filter', useOptions: () => CUSTOMER_STATUSES });

export const customers = crudResource({ scope: 'customers', name: 'customers', base: 'customers', client: tenantApi });

/** Customers (SPEC §2 /customer): the list is the kit's; the form is its own (prefill from the softphone, labels). */
export const customerEntity = defineEntity<Customer>({
  key: 'customer', ns: NS, prefix: 'customer', paths: paths.customer, permission: PERM.customer, feature: FEATURES.customer,
  schema: CustomerInputSchema, fields: [], api: customers, rowName: (c) => c.name,
  filters: [statusFilter, ...labelFilters],
  columns: [
    { key: 'code', header: 'code', render: (c) => c.code || '—' },
    { key: 'name', header: 'name', render: (c) => <span data-testid="customer-name">{c.name}</span> },
    { key: 'phone', header: 'phone', render: (c) => <span data-testid="customer-phone">{displayPhone(c.phone)}</span> },
    { key: 'email', header: 'email', render: (c) => c.email || '—' },
    { key: 'status', header: 'status', render: (c) => <Badge appearance="tint">{statusLabel(c.status)}</Badge> },
  ],
});
