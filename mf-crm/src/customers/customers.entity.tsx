import { Badge, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_STATUSES, CustomerInputSchema, FEATURES, PERM, paths, type Customer } from '@tongdai/contracts';
import { displayPhone, tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, type EntityFilter } from '@tongdai/ui';
import { NS } from '../i18n';
import { labelFilters } from '../org/CustomerLabels';

const statusLabel = (v: string) => CUSTOMER_STATUSES.find((s) => s.value === v)?.label ?? v;

function StatusFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(NS);
  return (
    <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('customer.fields.status')} data-testid="status-filter">
      <option value="">{t('customer.allStatuses')}</option>
      {CUSTOMER_STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
    </Select>
  );
}
const statusFilter: EntityFilter = { key: 'status', Control: StatusFilter };

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
