import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { CallDismissRegular, CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { displayPhone } from '@tongdai/platform';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/** The ringing call: caller number (and name, for a colleague's extension), answer / reject. */
export function IncomingCall({ number, name, onAnswer, onReject }: { number: string; name?: string; onAnswer: () => void; onReject: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <Card className={s.card} role="alertdialog" aria-label={t('incoming')} data-testid="softphone-incoming">
      <CardHeader header={<Text weight="semibold">{t('incoming')}</Text>} />
      {/* An internal caller is a colleague: the extension as it is, and the name. */}
      <Text className={s.number} data-testid="softphone-caller">{name ? number : displayPhone(number)}</Text>
      {name && <Text weight="semibold" data-testid="softphone-caller-name">{name}</Text>}
      <div className={s.actions}>
        <Button className={s.hangup} icon={<CallDismissRegular />} onClick={onReject} data-testid="softphone-reject">{t('reject')}</Button>
        <Button className={s.answer} icon={<CallRegular />} onClick={onAnswer} data-testid="softphone-answer">{t('answer')}</Button>
      </div>
    </Card>
  );
}
