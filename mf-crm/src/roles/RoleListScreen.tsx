import { useState } from 'react';
import { Button } from '@fluentui/react-components';
import { KeyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, SUPER_ADMIN_ROLE, type RoleDetail, type RoleListRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { EntityListScreen, useCrudQueries } from '@tongdai/ui';
import { PasswordDialog } from '../accounts/PasswordDialog';
import { ROLES_NS } from './i18n';
import { roleEntity } from './roles.entity';

export default function RoleListScreen() {
  const { t } = useTranslation(ROLES_NS);
  const { can } = useCan();
  const [pwFor, setPwFor] = useState<RoleListRow | null>(null);
  const pwRole = useCrudQueries<RoleDetail>(roleEntity.api, { id: pwFor?.id ?? null }).one;

  return (
    <>
      <EntityListScreen
        entity={roleEntity}
        canDelete={(r) => r.name !== SUPER_ADMIN_ROLE}
        rowActions={(r) => can(PERM.role.changePassword) && (
          <Button size="small" icon={<KeyRegular />} aria-label={t('changePassword')} title={t('changePassword')} onClick={() => setPwFor(r)} data-testid="change-password" />
        )}
      />
      <PasswordDialog
        open={!!pwFor && !!pwRole.data}
        title={`${t('changePassword')} · ${pwFor?.name ?? ''}`}
        users={pwRole.data?.users ?? []}
        onSubmit={(d) => tenantApi().put(`role/${pwFor!.id}/password`, { json: d })}
        onClose={() => setPwFor(null)}
      />
    </>
  );
}
