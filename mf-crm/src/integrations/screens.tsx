import { useTranslation } from 'react-i18next';
import { paths } from '@tongdai/contracts';
import { EntityListScreen, LinkButton } from '@tongdai/ui';
import { INTEGRATIONS_NS } from './i18n';
import { CreateCrmKeyDialog, RevokeCrmKey, RotateCrmSecret } from './KeyDialogs';
import { callDeliveryEntity, crmKeyEntity } from './integrations.entity';

function DeliveryLogLink({ id }: { id: number }) {
  const { t } = useTranslation(INTEGRATIONS_NS);
  return <LinkButton to={`${paths.webhookDelivery.list}?key_id=${id}`} size="small" data-testid="delivery-log">{t('key.log')}</LinkButton>;
}

/** /integrations ("Tích hợp CRM"): the CRM keys, made with the key shown once, their log, a new signing secret, revoked. */
export const Integrations = () => (
  <EntityListScreen
    entity={crmKeyEntity} createDialog={(close) => <CreateCrmKeyDialog close={close} />}
    rowActions={(k) => <><DeliveryLogLink id={k.id} /><RotateCrmSecret row={k} /><RevokeCrmKey row={k} /></>} rowActionsWidth="360px"
  />
);

/** /webhook-deliveries: the call events sent to the CRM keys' webhooks, newest first. */
export const IntegrationDeliveries = () => <EntityListScreen entity={callDeliveryEntity} />;
