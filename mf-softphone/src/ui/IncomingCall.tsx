import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { CallDismissRegular, CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { callViaLabel, type CallVia } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/**
 * The ringing call: caller number and name (a colleague's, or the name the call gives: a click-to-call's
 * "Gọi cho 0912…"), the hotline and group or queue it came through (agents answer "Kinh doanh" and "CSKH"
 * calls differently), answer / reject. `internal`: the caller is a colleague's extension.
 */
export function IncomingCall({ number, name, internal, via, onAnswer, onReject }: { number: string; name?: string; internal?: boolean; via?: CallVia; onAnswer: () => void; onReject: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const through = callViaLabel(via);
  return (
    <Card className={s.card} role="alertdialog" aria-label={t('incoming')} data-testid="softphone-incoming">
      <CardHeader header={<Text weight="semibold">{t('incoming')}</Text>} />
      {/* An internal caller is a colleague: the extension as it is; a phone number grouped to read. */}
      <Text className={s.number} data-testid="softphone-caller">{internal ? number : displayPhone(number)}</Text>
      {name && <Text weight="semibold" data-testid="softphone-caller-name">{name}</Text>}
      {through && <Text className={s.via} data-testid="softphone-call-via">{through}</Text>}
      <div className={s.actions}>
        <Button className={s.hangup} icon={<CallDismissRegular />} onClick={onReject} data-testid="softphone-reject">{t('reject')}</Button>
        <Button className={s.answer} icon={<CallRegular />} onClick={onAnswer} data-testid="softphone-answer">{t('answer')}</Button>
      </div>
    </Card>
  );
}
