import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PERM } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { SelectField, useApiError } from '@tongdai/ui';
import { SUBSCRIBERS_NS } from './i18n';
import { useAccountOptions } from './subscribers.api';

/**
 * The account a subscriber belongs to. Listing accounts needs account.view: without it (or on
 * a 403) the select is hidden and the form says why; the subscriber keeps its current link.
 */
export function LinkedAccountField(p: { value: string; onChange: (v: string) => void; error?: string; currentName: string | null }) {
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const { can } = useCan();
  const allowed = can(PERM.account.view);
  const accounts = useAccountOptions(allowed);
  const error = useApiError(accounts.error);

  if (!allowed || error?.status === 403) {
    return (
      <MessageBar intent="info" data-testid="accounts-forbidden">
        <MessageBarBody>{t('accountsForbidden')}{p.currentName ? ` (${t('fields.user_id')}: ${p.currentName})` : ''}</MessageBarBody>
      </MessageBar>
    );
  }
  if (accounts.isError) {
    return <MessageBar intent="error" data-testid="accounts-error"><MessageBarBody>{t('accountsFailed', { message: error?.message ?? '' })}</MessageBarBody></MessageBar>;
  }
  const options = (accounts.data ?? []).map((a) => ({ value: String(a.id), label: a.full_name ? `${a.full_name} (${a.username})` : a.username }));
  return <SelectField name="user_id" label={t('fields.user_id')} value={p.value} onChange={p.onChange} error={p.error} options={options} placeholder={t('noUser')} />;
}
