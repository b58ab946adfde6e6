import { useState } from 'react';
import { Button } from '@fluentui/react-components';
import { KeyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, type Account } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { EntityListScreen } from '@tongdai/ui';
import { accountEntity } from './accounts.entity';
import { ACCOUNTS_NS } from './i18n';
import { PasswordDialog } from './PasswordDialog';

export default function AccountListScreen() {
  const { t } = useTranslation(ACCOUNTS_NS);
  const { can } = useCan();
  const [pwFor, setPwFor] = useState<Account | null>(null);

  return (
    <>
      <EntityListScreen
        entity={accountEntity}
        rowActions={(a) => can(PERM.account.changePassword) && (
          <Button size="small" icon={<KeyRegular />} aria-label={t('changePassword')} title={t('changePassword')} onClick={() => setPwFor(a)} data-testid="change-password" />
        )}
      />
      <PasswordDialog
        open={!!pwFor}
        title={`${t('changePassword')} · ${pwFor?.username ?? ''}`}
        onSubmit={({ password, password_confirmation }) => tenantApi().put(`accounts/${pwFor!.id}/password`, { json: { password, password_confirmation } })}
        onClose={() => setPwFor(null)}
      />
    </>
  );
}
