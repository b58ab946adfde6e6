import { useEffect, useState } from 'react';
import { Button, Text, Tooltip } from '@fluentui/react-components';
import { CallEndRegular, MicOffRegular, MicRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/** mm:ss since the call was connected (SPEC §9 durations). */
function CallTimer({ since }: { since: number }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return <Text className={s.timer} aria-label={t('timer')} data-testid="softphone-timer">{formatDuration((now - since) / 1000)}</Text>;
}

/** While a call is up: remote number, timer, mute and hang-up. */
export function CallControls({ number, connectedAt, muted, onMute, onHangup }: { number?: string; connectedAt?: number; muted: boolean; onMute: () => void; onHangup: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <>
      {number && <Text className={s.timer} data-testid="softphone-remote">{number}</Text>}
      {connectedAt !== undefined && <CallTimer since={connectedAt} />}
      <Tooltip content={muted ? t('unmute') : t('mute')} relationship="label">
        <Button
          appearance="subtle" className={s.onBrand} icon={muted ? <MicOffRegular /> : <MicRegular />}
          aria-pressed={muted} onClick={onMute} data-testid="softphone-mute"
        />
      </Tooltip>
      <Button className={s.hangup} icon={<CallEndRegular />} onClick={onHangup} data-testid="softphone-hangup">{t('hangup')}</Button>
    </>
  );
}
