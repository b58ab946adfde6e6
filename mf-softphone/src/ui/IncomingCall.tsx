import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { CallDismissRegular, CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@tongdai/ui';
import { displayPhone } from '@tongdai/platform';
import { routes } from '@tongdai/contracts';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/** The caller popup (SPEC §4): caller number, answer / reject; customer link when the tenant bought it. */
export function IncomingCall({ number, customerPopup, onAnswer, onReject }: { number: string; customerPopup: boolean; onAnswer: () => void; onReject: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <Card className={s.popup} role="alertdialog" aria-label={t('incoming')} data-testid="softphone-incoming">
      <CardHeader header={<Text weight="semibold">{t('incoming')}</Text>} />
      <Text className={s.number} data-testid="softphone-caller">{displayPhone(number)}</Text>
      {customerPopup && <AppLink to={`${routes.customer.list()}?search=${encodeURIComponent(number)}`} testId="softphone-customer">{t('viewCustomer')}</AppLink>}
      <div className={s.actions}>
        <Button className={s.hangup} icon={<CallDismissRegular />} onClick={onReject} data-testid="softphone-reject">{t('reject')}</Button>
        <Button className={s.answer} icon={<CallRegular />} onClick={onAnswer} data-testid="softphone-answer">{t('answer')}</Button>
      </div>
    </Card>
  );
}
