import { lazy, Suspense, useState } from 'react';
import { Spinner } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { NS } from '../i18n';
import { BarPopover } from '../ui/BarPopover';
import { useMissedBadge } from './useRecentCalls';

// The list (and its query) loads the first time the agent opens it: the phone's first load stays small.
const RecentCallsList = lazy(() => import('./RecentCallsList'));

/** "Gần đây" in the top bar: the agent's recent calls, with the count of calls missed since last opened. */
export function RecentCalls({ extension, canCall, onCall }: { extension: string; canCall: boolean; onCall: (n: string) => void }) {
  const { t } = useTranslation(NS);
  const [open, setOpen] = useState(false);
  const badge = useMissedBadge(extension);
  const label = badge.count ? t('recentMissed', { count: badge.count }) : t('recent');
  const toggle = (next: boolean) => {
    setOpen(next);
    if (next) badge.clear();
  };
  return (
    <BarPopover label={label} title={t('recent')} icon={<HistoryRegular />} testId="softphone-recent-toggle" badge={{ count: badge.count, testId: 'softphone-recent-missed' }} open={open} onOpenChange={toggle}>
      <Suspense fallback={<Spinner size="tiny" label={t('recentLoading')} />}>
        <RecentCallsList canCall={canCall} onCall={(n) => { onCall(n); setOpen(false); }} />
      </Suspense>
    </BarPopover>
  );
}
