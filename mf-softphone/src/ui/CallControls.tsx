import { useEffect, useState } from 'react';
import { Button, Text, Tooltip } from '@fluentui/react-components';
import { CallEndRegular, MicOffRegular, MicRegular, PauseRegular, PlayRegular, RecordRegular, RecordStopRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '@tongdai/ui';
import { NS } from '../i18n';
import type { PhoneContext } from '../machine/phone-machine';
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

export interface CallControlsProps {
  number?: string;
  connectedAt?: number;
  muted: boolean;
  hold?: PhoneContext['hold'];
  onMute: () => void;
  onHangup: () => void;
  /** Present when the provider can hold (JsSIP); only once the call is connected. */
  onHold?: () => void;
  /** The call is recorded and this phone may pause it; with onRecording, the pause/resume button. */
  recording?: 'on' | 'paused';
  onRecording?: () => void;
}

/** "Đang giữ máy" when this phone holds the call, "Bên kia đang giữ máy" when only the other side does. */
function HoldIndicator({ hold }: { hold: NonNullable<PhoneContext['hold']> }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return <Text className={s.held} role="status" data-testid="softphone-hold">{t(hold.local ? 'onHold' : 'heldByRemote')}</Text>;
}

/** While a call is up: remote number, timer, hold indicator, mute, hold/resume and hang-up. */
/** "Đang ghi âm" / "Đã tạm dừng ghi âm" and the button that pauses or resumes it (payment details). */
function RecordingControl({ recording, onRecording }: { recording: 'on' | 'paused'; onRecording?: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const paused = recording === 'paused';
  return (
    <>
      <Text className={s.held} role="status" data-testid="softphone-recording">{t(paused ? 'recordingPaused' : 'recordingOn')}</Text>
      {onRecording && (
        <Tooltip content={paused ? t('resumeRecording') : t('pauseRecording')} relationship="label">
          <Button appearance="subtle" className={s.onBrand} icon={paused ? <RecordRegular /> : <RecordStopRegular />} aria-pressed={paused} onClick={onRecording} data-testid="softphone-recording-toggle" />
        </Tooltip>
      )}
    </>
  );
}

export function CallControls({ number, connectedAt, muted, hold, onMute, onHangup, onHold, recording, onRecording }: CallControlsProps) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <>
      {number && <Text className={s.remote} data-testid="softphone-remote">{number}</Text>}
      {connectedAt !== undefined && <CallTimer since={connectedAt} />}
      {hold && <HoldIndicator hold={hold} />}
      {recording && <RecordingControl recording={recording} onRecording={onRecording} />}
      {onHold && (
        <Tooltip content={hold?.local ? t('resume') : t('hold')} relationship="label">
          <Button appearance="subtle" className={s.onBrand} icon={hold?.local ? <PlayRegular /> : <PauseRegular />} aria-pressed={!!hold?.local} onClick={onHold} data-testid="softphone-hold-toggle" />
        </Tooltip>
      )}
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
