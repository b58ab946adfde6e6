import { useEffect, useRef, useState } from 'react';
import { Button, Caption1, mergeClasses, Spinner, Text, Tooltip } from '@fluentui/react-components';
import { DeleteRegular, PlayRegular, VoicemailRegular } from '@fluentui/react-icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDuration, parseGroupMailbox, VOICEMAIL_CODES, type VoicemailMessage } from '@tongdai/contracts';
import { NS } from '../i18n';
import { useRecentStyles } from '../recent/styles';
import { deleteVoicemail, fetchVoicemail, fetchVoicemailAudio, markHeard, VOICEMAIL_KEY } from './voicemail-api';
import { formatViDateTime } from '@tongdai/ui';


function Message({ m, playing, onPlay, onDelete, busy }: { m: VoicemailMessage; playing: string | null; onPlay: () => void; onDelete: () => void; busy: boolean }) {
  const { t } = useTranslation(NS);
  const s = useRecentStyles();
  const [confirm, setConfirm] = useState(false);
  // Only a group's shared box is named: the agent's own is the usual case.
  const group = parseGroupMailbox(m.mailbox);
  const box = group !== null ? ` · ${t('voicemailGroupBox', { code: `${VOICEMAIL_CODES.group}${group}` })}` : '';
  return (
    <li data-testid="softphone-voicemail-row" data-heard={String(m.heard)}>
      <div className={s.row} style={{ gridTemplateColumns: '20px 1fr auto auto', cursor: 'default' }}>
        <VoicemailRegular className={mergeClasses(s.icon, !m.heard && s.missed)} aria-label={m.heard ? t('voicemailOld') : t('voicemailNew')} />
        <span className={s.who}>
          <Text weight={m.heard ? 'regular' : 'semibold'} className={s.line} data-testid="softphone-voicemail-caller">{m.caller}</Text>
          <Caption1 className={mergeClasses(s.meta, s.line)}>
            {m.heard ? t('voicemailOld') : t('voicemailNew')} · {formatViDateTime(m.created_at, { seconds: false })} · {formatDuration(Math.round(m.duration_seconds))}{box}
          </Caption1>
        </span>
        <Tooltip content={t('voicemailPlay')} relationship="label">
          <Button appearance="subtle" size="small" icon={<PlayRegular />} onClick={onPlay} disabledFocusable={busy} data-testid="softphone-voicemail-play" />
        </Tooltip>
        {/* One button that asks, then deletes: swapping elements under the click would read as a
            click outside the popover (the clicked element gone) and close it. */}
        <Tooltip content={t('voicemailDelete')} relationship="label">
          <Button
            appearance={confirm ? 'primary' : 'subtle'} size="small" icon={<DeleteRegular />} disabledFocusable={busy}
            onClick={() => (confirm ? onDelete() : setConfirm(true))} data-testid={confirm ? 'softphone-voicemail-confirm-delete' : 'softphone-voicemail-delete'}
          >
            {confirm ? t('voicemailConfirmDelete') : undefined}
          </Button>
        </Tooltip>
      </div>
      {playing && <audio src={playing} controls autoPlay style={{ width: '100%' }} data-testid="softphone-voicemail-audio" />}
    </li>
  );
}

/** The agent's voicemail: new ones first in bold; play marks a message heard; delete asks once more. */
export default function VoicemailList() {
  const { t } = useTranslation(NS);
  const s = useRecentStyles();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [...VOICEMAIL_KEY, 'list'], queryFn: fetchVoicemail, staleTime: 0 });
  const [player, setPlayer] = useState<{ id: number; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A deleted message's row takes the focused button with it: focus moves to the panel first, or
  // the popover would lose it and close.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => () => { if (player) URL.revokeObjectURL(player.url); }, [player]);
  const refresh = () => void qc.invalidateQueries({ queryKey: VOICEMAIL_KEY });
  const play = useMutation({
    mutationFn: async (m: VoicemailMessage) => {
      const url = await fetchVoicemailAudio(m.id);
      if (!m.heard) await markHeard(m.id);
      return { id: m.id, url };
    },
    onSuccess: (p) => { setError(null); setPlayer(p); refresh(); },
    onError: () => setError(t('voicemailPlayError')),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteVoicemail(id),
    onSuccess: () => { panel.current?.focus(); setError(null); refresh(); },
    onError: () => setError(t('voicemailDeleteError')),
  });
  const messages = q.data?.data ?? [];
  return (
    <section className={s.panel} data-testid="softphone-voicemail" ref={panel} tabIndex={-1} aria-label={t('voicemail')}>
      <Text as="h2" weight="semibold" size={400} className={s.title}>{t('voicemail')}</Text>
      {q.isPending && <Spinner size="tiny" label={t('voicemailLoading')} />}
      {(q.isError || error) && <Text role="alert" data-testid="softphone-voicemail-error">{error ?? t('voicemailError')}</Text>}
      {q.isSuccess && !messages.length && <Text className={s.meta} data-testid="softphone-voicemail-empty">{t('voicemailEmpty')}</Text>}
      {messages.length > 0 && (
        <ul className={s.list}>
          {messages.map((m) => (
            <Message key={m.id} m={m} playing={player?.id === m.id ? player.url : null} busy={play.isPending || remove.isPending}
              onPlay={() => play.mutate(m)} onDelete={() => remove.mutate(m.id)} />
          ))}
        </ul>
      )}
      {/* The feature codes any phone of the tenant dials (issue 16: documented where the messages are). */}
      <Caption1 className={s.meta} data-testid="softphone-voicemail-codes">{t('voicemailCodes', { own: VOICEMAIL_CODES.own, other: VOICEMAIL_CODES.other, group: VOICEMAIL_CODES.group })}</Caption1>
    </section>
  );
}
