import { Button, Card, CardHeader, Spinner, Text } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_STATUSES, routes, type Customer } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { AppLink } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';
import { useCustomerByPhone } from './useCustomerByPhone';

/** customerCode → customer-code, for the test ids. */
const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const statusLabel = (value: string) => CUSTOMER_STATUSES.find((s) => s.value === value)?.label ?? value;

function CustomerDetails({ customer }: { customer: Customer }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const rows: [string, string][] = [
    ['customerCode', customer.code],
    ['customerPhone', customer.phone],
    ['customerEmail', customer.email],
    ['customerStatus', statusLabel(customer.status)],
    ['customerNote', customer.note],
  ];
  return (
    <>
      <Text weight="semibold" size={500} data-testid="softphone-customer-name">{customer.name}</Text>
      <dl className={s.details}>
        {rows.filter(([, value]) => value).map(([key, value]) => (
          <div key={key} className={s.detailRow} data-testid={`softphone-${kebab(key)}`}>
            <dt className={s.detailLabel}>{t(key)}</dt>
            <dd className={s.detailValue}>{value}</dd>
          </div>
        ))}
      </dl>
      <AppLink to={routes.customer.edit(customer.id)} testId="softphone-customer-open">{t('openCustomer')}</AppLink>
    </>
  );
}

/**
 * The customer popup of SPEC §4: who is calling (or being called), found by the number in the
 * CRM; "Khách hàng mới" with a link to create the customer when nobody has it.
 */
export function CustomerCard({ number, onClose }: { number: string; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const lookup = useCustomerByPhone(number);
  return (
    <Card className={s.card} role="region" aria-label={t('customerTitle')} data-testid="softphone-customer">
      <CardHeader
        header={<Text weight="semibold">{t('customerTitle')}</Text>}
        description={<Text data-testid="softphone-customer-number">{displayPhone(number)}</Text>}
        action={<Button appearance="subtle" icon={<DismissRegular />} aria-label={t('close')} onClick={onClose} data-testid="softphone-customer-close" />}
      />
      {lookup.allowed && lookup.isPending && <Spinner size="tiny" label={t('customerLoading')} />}
      {lookup.isError && <Text>{t('customerError')}</Text>}
      {lookup.data && <CustomerDetails customer={lookup.data} />}
      {lookup.data === null && (
        <>
          <Text weight="semibold" data-testid="softphone-customer-new">{t('newCustomer')}</Text>
          <AppLink to={`${routes.customer.add()}?phone=${encodeURIComponent(number)}`} testId="softphone-customer-add">{t('addCustomer')}</AppLink>
        </>
      )}
    </Card>
  );
}
