import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CUSTOMER_STATUSES, routes, type Customer } from '@tongdai/contracts';
import { ErrorState, FormShell, LoadingState, SelectField, TextField, useApiError, useCrudQueries, useFormSubmit } from '@tongdai/ui';
import { NS } from '../i18n';
import { CustomerLabelFields } from '../org/CustomerLabels';
import { customers } from './customers.entity';
import { useCustomerForm, type FieldErrors } from './useCustomerForm';

export default function CustomerFormScreen() {
  const { t } = useTranslation(NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { one: existing, save } = useCrudQueries<Customer>(customers, { id });
  const loadError = useApiError(existing.error);
  // /customer/add?phone=… (the softphone's customer card): a new customer with that number.
  const [query] = useSearchParams();
  const form = useCustomerForm(existing.data, id === null ? { phone: query.get('phone') ?? '' } : {});
  const { submit, formError } = useFormSubmit({ validate: form.validate, setErrors: (e) => form.setErrors(e as FieldErrors) }, (input) => save.mutateAsync(input),
    () => t(id === null ? 'customer.created' : 'customer.updated'));

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const f = (name: keyof typeof form.draft, extra: { required?: boolean; type?: 'email' | 'tel'; multiline?: boolean } = {}) => (
    <TextField name={name} label={t(`customer.fields.${name}`)} value={String(form.draft[name] ?? '')} onChange={form.set(name)} error={form.errors[name]} {...extra} />
  );

  return (
    <FormShell
      title={t(id === null ? 'customer.addTitle' : 'customer.editTitle')}
      testId="customer-form"
      onSubmit={() => void submit().then((ok) => ok && navigate(routes.customer.list()))}
      submitting={save.isPending}
      error={formError}
      backTo={routes.customer.list()}
    >
      {f('name', { required: true })}
      {f('phone', { required: true, type: 'tel' })}
      <SelectField name="status" label={t('customer.fields.status')} required value={form.draft.status} onChange={form.set('status')} error={form.errors.status} options={CUSTOMER_STATUSES} placeholder={t('customer.chooseStatus')} />
      {f('code')}
      {f('email', { type: 'email' })}
      {f('address')}
      {f('zalo')}
      {f('facebook')}
      <CustomerLabelFields values={form.draft} errors={form.errors} onChange={(k) => form.set(k)} />
      {f('note', { multiline: true })}
    </FormShell>
  );
}
