import { Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { PauseRegular, PlayRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { AudioKind } from '@tongdai/contracts';
import { fetchAudioBlob } from './audio.api';
import { AUDIO_NS } from './i18n';
import { useBlobAudio } from '@tongdai/ui';

const useStyles = makeStyles({
  box: { display: 'inline-flex', alignItems: 'center', gap: '8px' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** Play/Pause of one file; the bytes are fetched on the first press. */
export function PlayButton({ kind, id }: { kind: AudioKind; id: number }) {
  const s = useStyles();
  const { t } = useTranslation(AUDIO_NS);
  const player = useBlobAudio(() => fetchAudioBlob(kind, id));
  const playing = player.status === 'playing';
  return (
    <span className={s.box}>
      <Button size="small" appearance={playing ? 'primary' : 'secondary'} icon={playing ? <PauseRegular /> : <PlayRegular />}
        disabled={player.status === 'loading'} onClick={() => void player.toggle()} data-testid="play" data-status={player.status}>
        {player.status === 'loading' ? t('loadingAudio') : playing ? t('pause') : t('play')}
      </Button>
      {player.error && <Caption1 className={s.error} data-testid="play-error">{player.error}</Caption1>}
      <audio ref={player.ref} {...player.events} preload="none" data-testid="audio-player" />
    </span>
  );
}
