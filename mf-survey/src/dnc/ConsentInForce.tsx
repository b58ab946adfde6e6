import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { ConsentTerms } from '@tongdai/contracts';
import type { Translate } from '@tongdai/ui';
import { NS } from '../i18n';
import { liftsText } from './consent.entity';
import { formatViDay } from '@tongdai/ui';

/** The working screen: the subscriber's consent in force (Decree 91's "thỏa thuận khác") and what it allows. */
export function ConsentInForce({ consent }: { consent: ConsentTerms }) {
  const { t } = useTranslation(NS);
  return (
    <MessageBar intent="success" layout="multiline" data-testid="work-consent">
      <MessageBarBody>
        {t('consent.inForce', { source: consent.source, day: formatViDay(consent.agreed_at), lifts: liftsText(consent, t as Translate) })}
      </MessageBarBody>
    </MessageBar>
  );
}
