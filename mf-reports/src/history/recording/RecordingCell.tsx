import { useState } from 'react';
import { Button, Spinner, Text, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, DismissRegular, PlayRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { RecordingRef } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { formatDuration } from '@tongdai/ui';
import { NS } from '../../i18n';
import { saveBlob } from '../saveBlob';
import { fetchRecordingFile, recordingMessage } from './recording.api';
import { playerId } from './RecordingPlayer';
import { useRecordings } from './recordings';

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
 * recording.download, download; a muted dash for a call with no recording the viewer may hear.
 * Icon buttons (the length is the talk time's, a column away; the tooltip says it too). The play
 * button stays the same element when it turns into close, so the focus stays on it.
 */
export function RecordingCell({ recording }: { recording?: RecordingRef | null }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const recordings = useRecordings();
  if (!recording) return <Text className={s.none} data-testid="recording-none">—</Text>;
  const open = recordings?.openId === recording.id;
  const duration = formatDuration(recording.duration_seconds);
  return (
    <span className={s.cell} data-testid="recording">
      {recordings && (
        <Tooltip content={t(open ? 'recording.close' : 'recording.play', { duration })} relationship="label">
          <Button size="small" appearance={open ? 'primary' : 'secondary'} icon={open ? <DismissRegular /> : <PlayRegular />}
            aria-expanded={open} aria-controls={open ? playerId(recording.id) : undefined}
            onClick={() => recordings.toggle(recording.id)} data-testid="recording-toggle" />
        </Tooltip>
      )}
      {recording.downloadable && <DownloadButton id={recording.id} />}
    </span>
  );
}
