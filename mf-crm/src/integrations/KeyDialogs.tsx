import type { OtpKey } from '@tongdai/contracts';
import { CreateApiKeyDialog, RevokeApiKey, RotateApiKeySecret } from '@tongdai/ui';
import { INTEGRATIONS_NS } from './i18n';
import { crmKeyEntity } from './integrations.entity';
import { useRevokeCrmKey, useRotateCrmSecret } from './integrations.api';

/** "Thêm khoá cho CRM": the kit's key dialogs (@tongdai/ui ApiKeyDialogs) with the CRM's form and words. */
export function CreateCrmKeyDialog({ close }: { close: () => void }) {
  return <CreateApiKeyDialog ns={INTEGRATIONS_NS} entity={crmKeyEntity} prefill={{ scopes: ['calls.events'] }} testId="crm-key-form" close={close} />;
}

/** "Thu hồi": the key opens nothing and its webhook hears nothing any more. */
export function RevokeCrmKey({ row }: { row: OtpKey }) {
  return <RevokeApiKey ns={INTEGRATIONS_NS} row={row} revoke={useRevokeCrmKey()} />;
}

/** "Khoá ký mới": the new signing secret shown once. */
export function RotateCrmSecret({ row }: { row: OtpKey }) {
  return <RotateApiKeySecret ns={INTEGRATIONS_NS} row={row} rotate={useRotateCrmSecret()} />;
}
