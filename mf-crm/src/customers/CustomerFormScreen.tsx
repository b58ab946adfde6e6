import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CUSTOMER_STATUSES, routes } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ErrorState, FormShell, LoadingState, SelectField, TextField, useApiError } from '@tongdai/ui';
import { NS } from '../i18n';
import { CustomerLabelFields } from '../org/CustomerLabels';
import { useCustomer, useSaveCustomer } from './customers.api';
import { useCustomerForm, type FieldErrors } from './useCustomerForm';

export default function CustomerFormScreen() {
  const { t } = useTranslation(NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const existing = useCustomer(id);
  const loadError = useApiError(existing.error);
  const save = useSaveCustomer(id);
  // /customer/add?phone=… (the softphone's customer card): a new customer with that number.
  const [query] = useSearchParams();
  const form = useCustomerForm(existing.data, id === null ? { phone: query.get('phone') ?? '' } : {});
  const [formError, setFormError] = useState<string | null>(null);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const submit = async () => {
    setFormError(null);
    const input = form.validate();
    if (!input) return;
    try {
      await save.mutateAsync(input);
      notify('success', t(id === null ? 'customer.created' : 'customer.updated'));
      navigate(routes.customer.list());
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])) as FieldErrors);
      setFormError(body.message);
    }
  };

  const f = (name: keyof typeof form.draft, extra: { required?: boolean; type?: 'email' | 'tel'; multiline?: boolean } = {}) => (
    <TextField name={name} label={t(`customer.fields.${name}`)} value={String(form.draft[name] ?? '')} onChange={form.set(name)} error={form.errors[name]} {...extra} />
  );

  return (
    <FormShell
      title={t(id === null ? 'customer.addTitle' : 'customer.editTitle')}
      testId="customer-form"
      onSubmit={() => void submit()}
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
