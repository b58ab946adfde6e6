import { useState } from 'react';
import { Button, Spinner, Text, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, DismissRegular, PlayRegular, VoicemailRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { RecordingRef, VoicemailRef } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { formatDuration } from '@tongdai/ui';
import { NS } from '../../i18n';
import { saveBlob } from '../saveBlob';
import { fetchRecordingFile, recordingMessage } from './recording.api';
import { playerId } from './RecordingPlayer';
import { audioKey, useRecordings } from './recordings';

const useStyles = makeStyles({
  cell: { display: 'inline-flex', alignItems: 'center', gap: '4px' },
  none: { color: tokens.colorNeutralForeground3 },
});

/** The file, fetched with the viewer's token and saved under the API's name. Busy, it keeps the focus. */
function DownloadButton({ id }: { id: number }) {
  const { t } = useTranslation(NS);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await fetchRecordingFile(id);
      saveBlob(file.blob, file.name);
    } catch (e) {
      notify('error', recordingMessage(await toApiError(e)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Tooltip content={t(busy ? 'recording.downloading' : 'recording.download')} relationship="label">
      <Button size="small" appearance="subtle" icon={busy ? <Spinner size="extra-tiny" /> : <ArrowDownloadRegular />} disabledFocusable={busy}
        onClick={() => void run()} data-testid="recording-download" />
    </Tooltip>
  );
}

/**
 * The "Ghi âm" cell of a call: play (the player opens under the row) and, to holders of
 * recording.download, download; the voicemail message its caller left, if any (issue 16); a muted
 * dash for a call with neither that the viewer may hear.
 * Icon buttons (the length is the talk time's, a column away; the tooltip says it too). The play
 * button stays the same element when it turns into close, so the focus stays on it.
 */
export function RecordingCell({ recording, voicemail }: { recording?: RecordingRef | null; voicemail?: VoicemailRef | null }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const recordings = useRecordings();
  if (!recording && !voicemail) return <Text className={s.none} data-testid="recording-none">—</Text>;
  const button = (kind: 'recording' | 'voicemail', ref: { id: number; duration_seconds: number }) => {
    const key = audioKey(kind, ref.id);
    const open = recordings?.openKey === key;
    const duration = formatDuration(ref.duration_seconds);
    const label = kind === 'recording' ? t(open ? 'recording.close' : 'recording.play', { duration }) : t(open ? 'recording.voicemailClose' : 'recording.voicemail', { duration });
    const icon = open ? <DismissRegular /> : kind === 'recording' ? <PlayRegular /> : <VoicemailRegular />;
    return (
      recordings && (
        <Tooltip content={label} relationship="label">
          <Button size="small" appearance={open ? 'primary' : 'secondary'} icon={icon}
            aria-expanded={open} aria-controls={open ? playerId(key) : undefined}
            onClick={() => recordings.toggle(key)} data-testid={`${kind}-toggle`} />
        </Tooltip>
      )
    );
  };
  return (
    <span className={s.cell} data-testid="recording">
      {recording && button('recording', recording)}
      {recording?.downloadable && <DownloadButton id={recording.id} />}
      {voicemail && button('voicemail', voicemail)}
    </span>
  );
}
