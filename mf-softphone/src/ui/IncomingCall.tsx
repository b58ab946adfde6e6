import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { CallDismissRegular, CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { displayPhone } from '@tongdai/platform';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/** The ringing call: caller number, answer / reject. Who the caller is shows in the customer card. */
export function IncomingCall({ number, onAnswer, onReject }: { number: string; onAnswer: () => void; onReject: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <Card className={s.card} role="alertdialog" aria-label={t('incoming')} data-testid="softphone-incoming">
      <CardHeader header={<Text weight="semibold">{t('incoming')}</Text>} />
      <Text className={s.number} data-testid="softphone-caller">{displayPhone(number)}</Text>
      <div className={s.actions}>
        <Button className={s.hangup} icon={<CallDismissRegular />} onClick={onReject} data-testid="softphone-reject">{t('reject')}</Button>
        <Button className={s.answer} icon={<CallRegular />} onClick={onAnswer} data-testid="softphone-answer">{t('answer')}</Button>
      </div>
    </Card>
  );
}
