import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { CallReportRow } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { useBlobAudio } from '@tongdai/ui';
import { NS } from '../../i18n';
import { recordingMessage } from './recording.api';

const useStyles = makeStyles({
  box: { display: 'flex', alignItems: 'center', gap: '12px', minHeight: '40px', flexWrap: 'wrap' },
  // Wide enough for the browser to draw a seek bar a person can use.
  audio: { width: 'min(100%, 560px)', height: '40px' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** The DOM id of a sound's player (the play button of its row controls it). */
export const playerId = (key: string) => `player-${key}`;

/**
 * A call's recording under its row: the bytes fetched with the viewer's token when it opens, then
 * the browser's own player, already playing; closing it (or opening another) revokes the bytes.
 */
export function RecordingPlayer({ row, audio, onGone }: { row: CallReportRow; audio: { key: string; kind: 'recording' | 'voicemail'; fetch: () => Promise<Blob> }; onGone: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const player = useBlobAudio(audio.fetch, { messageOf: recordingMessage });
  const started = useRef(false);
  const gone = useRef(onGone);
  gone.current = onGone;
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      void player.toggle();
    }
    // The row left the page (another page, a filter): the list forgets it was open.
    return () => gone.current();
  }, []);
  const loaded = player.status === 'playing' || player.status === 'paused';
  return (
    <div className={s.box} id={playerId(audio.key)} data-testid={audio.kind === 'voicemail' ? 'voicemail-player' : 'recording-player'} data-status={player.status}>
      {player.status === 'loading' && <Spinner size="extra-small" labelPosition="after" label={t('recording.loading')} data-testid="recording-loading" />}
      {player.error && <Text role="alert" className={s.error} data-testid="recording-error">{player.error}</Text>}
      <audio
        ref={player.ref} {...player.events} controls hidden={!loaded} className={s.audio}
        // The browser draws its player in the page's scheme, not the app's: told so, on the element itself, in dark mode.
        style={dark ? { colorScheme: 'dark' } : undefined}
        aria-label={t(audio.kind === 'voicemail' ? 'recording.voicemailPlayer' : 'recording.player', { caller: row.caller, callee: row.callee })} data-testid="recording-audio"
      />
    </div>
  );
}
