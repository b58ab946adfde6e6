import { useState } from 'react';
import {
  Button, Caption1, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens,
} from '@fluentui/react-components';
import { PauseRegular, PlayRegular } from '@fluentui/react-icons';
import {
  CALL_RESULTS, CONTACT_RESULT_LABELS, CONTACT_STATE_LABELS, RECORDING_MSG, displayForm, type CampaignContact, type CampaignFamily, type ContactCall, type RecordingRef,
} from '@tongdai/contracts';
import { ErrorState, formatDuration, formatViDateTime, LoadingState, useBlobAudio } from '@tongdai/ui';
import { CONTACTS_PAGE, fetchRecording, useCampaignContacts } from './campaign.api';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: '8px' },
  pager: { display: 'flex', alignItems: 'center', gap: '8px', justifyContent: 'flex-end' },
  play: { display: 'inline-flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** A call's recording from its contact's row: the bytes fetched with the viewer's token on the first press. */
function RecordingPlay({ recording }: { recording: RecordingRef }) {
  const s = useStyles();
  const player = useBlobAudio(() => fetchRecording(recording.id), { messageOf: (e) => (e.status === 404 ? RECORDING_MSG.notFound : e.message) });
  const playing = player.status === 'playing';
  const duration = formatDuration(recording.duration_seconds);
  return (
    <span className={s.play}>
      <Button size="small" appearance={playing ? 'primary' : 'secondary'} icon={playing ? <PauseRegular /> : <PlayRegular />}
        disabled={player.status === 'loading'} onClick={() => void player.toggle()} data-testid="contact-recording" data-status={player.status}
        aria-label={`${playing ? 'Dừng' : 'Nghe'} ghi âm (${duration})`}>
        {duration}
      </Button>
      {player.error && <Caption1 role="alert" className={s.error}>{player.error}</Caption1>}
      <audio ref={player.ref} {...player.events} preload="none" />
    </span>
  );
}

/** What the contact's call says: its time and result from the call's record, "Đang gọi" until the record is written. */
function CallCell({ call }: { call: ContactCall | null }) {
  const s = useStyles();
  if (!call) return <Text className={s.muted}>—</Text>;
  return (
    <Text data-testid="contact-call">
      {formatViDateTime(call.started_at ?? call.attempt_at, { seconds: false })} · {call.result ? CALL_RESULTS[call.result] : 'Đang gọi'}
    </Text>
  );
}

/**
 * The campaign's contacts in the results (ADR 0050: an attempt knows its call): each one's state, result,
 * its latest call (time, result, talk time) and, for a viewer holding recording.listen, its recording.
 */
export function ContactCalls({ family, campaignId }: { family: CampaignFamily; campaignId: number }) {
  const s = useStyles();
  const [page, setPage] = useState(1);
  const contacts = useCampaignContacts(family, campaignId, page);
  if (contacts.isPending) return <LoadingState />;
  if (contacts.isError) return <ErrorState message="Không tải được danh sách liên hệ" onRetry={() => void contacts.refetch()} />;
  const { data, meta } = contacts.data;
  const pages = Math.max(1, Math.ceil(meta.total / CONTACTS_PAGE));
  const row = (c: CampaignContact) => (
    <TableRow key={c.id} data-testid="contact-row">
      <TableCell>{c.name || '—'}</TableCell>
      <TableCell>{displayForm(c.number)}</TableCell>
      <TableCell>{CONTACT_STATE_LABELS[c.state]}</TableCell>
      <TableCell>{c.result ? CONTACT_RESULT_LABELS[c.result] : '—'}</TableCell>
      <TableCell><CallCell call={c.call} /></TableCell>
      <TableCell>{c.call?.talk_seconds != null ? formatDuration(c.call.talk_seconds) : '—'}</TableCell>
      <TableCell>{c.call?.recording ? <RecordingPlay recording={c.call.recording} /> : <Text className={s.muted}>—</Text>}</TableCell>
    </TableRow>
  );
  return (
    <section className={s.box} data-testid="contact-calls">
      <Text as="h3" weight="semibold">Liên hệ và cuộc gọi</Text>
      <Table size="small" aria-label="Liên hệ và cuộc gọi">
        <TableHeader>
          <TableRow>
            {['Liên hệ', 'Số điện thoại', 'Trạng thái', 'Kết quả', 'Cuộc gọi', 'Đàm thoại', 'Ghi âm'].map((h) => <TableHeaderCell key={h}>{h}</TableHeaderCell>)}
          </TableRow>
        </TableHeader>
        <TableBody>{data.map(row)}</TableBody>
      </Table>
      {pages > 1 && (
        <div className={s.pager}>
          <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>Trang trước</Button>
          <Text size={200}>Trang {page} / {pages}</Text>
          <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>Trang sau</Button>
        </div>
      )}
    </section>
  );
}
