import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '@fluentui/react-components';
import { VoicemailRegular } from '@fluentui/react-icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pbxEvents$ } from '@tongdai/platform';
import { NS } from '../i18n';
import { BarPopover } from '../ui/BarPopover';
import { fetchVoicemail, VOICEMAIL_KEY } from './voicemail-api';

// The list loads the first time the agent opens it.
const VoicemailList = lazy(() => import('./VoicemailList'));

/** How often the badge looks for new messages when no call event says so (a group's box, another tab). */
const POLL_MS = 30_000;

/**
 * "Hộp thư thoại" in the top bar: the count of new messages, and the list. A call that ends
 * unanswered may have left one: the badge looks again then (the worker stores the message a moment
 * after the caller hangs up, hence the second look).
 */
export function Voicemail({ extension }: { extension: string }) {
  const { t } = useTranslation(NS);
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const badge = useQuery({ queryKey: [...VOICEMAIL_KEY, 'list'], queryFn: fetchVoicemail, refetchInterval: POLL_MS, retry: false });
  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const events = pbxEvents$.subscribe((e) => {
      if (e.type !== 'ended' || e.disposition === 'ANSWERED') return;
      for (const ms of [1000, 4000]) timers.push(setTimeout(() => void qc.invalidateQueries({ queryKey: VOICEMAIL_KEY }), ms));
    });
    return () => { events.unsubscribe(); timers.forEach(clearTimeout); };
  }, [extension, qc]);
  const unheard = badge.data?.unheard ?? 0;
  const label = unheard ? t('voicemailUnheard', { count: unheard }) : t('voicemail');
  return (
    <BarPopover label={label} title={t('voicemail')} icon={<VoicemailRegular />} testId="softphone-voicemail-toggle" badge={{ count: unheard, testId: 'softphone-voicemail-unheard' }} open={open} onOpenChange={setOpen}>
      <Suspense fallback={<Spinner size="tiny" label={t('voicemailLoading')} />}>
        <VoicemailList />
      </Suspense>
    </BarPopover>
  );
}
