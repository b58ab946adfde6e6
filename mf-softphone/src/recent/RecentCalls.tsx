import { lazy, Suspense, useState } from 'react';
import { Button, CounterBadge, Popover, PopoverSurface, PopoverTrigger, Spinner, Tooltip } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { NS } from '../i18n';
import { useSoftphoneStyles } from '../ui/styles';
import { useMissedBadge } from './useRecentCalls';

// The list (and its query) loads the first time the agent opens it: the phone's first load stays small.
const RecentCallsList = lazy(() => import('./RecentCallsList'));

/** "Gần đây" in the top bar: the agent's recent calls, with the count of calls missed since last opened. */
export function RecentCalls({ extension, canCall, onCall }: { extension: string; canCall: boolean; onCall: (n: string) => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const [open, setOpen] = useState(false);
  const badge = useMissedBadge(extension);
  const label = badge.count ? t('recentMissed', { count: badge.count }) : t('recent');
  const toggle = (next: boolean) => {
    setOpen(next);
    if (next) badge.clear();
  };
  return (
    <Popover open={open} onOpenChange={(_, d) => toggle(d.open)} positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={label} relationship="label">
          <Button appearance="subtle" className={s.onBrand} data-testid="softphone-recent-toggle" icon={
            <span className={s.badged}>
              <HistoryRegular />
              {badge.count > 0 && <CounterBadge className={s.counter} count={badge.count} size="small" color="danger" data-testid="softphone-recent-missed" />}
            </span>
          } />
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface aria-label={t('recent')}>
        <Suspense fallback={<Spinner size="tiny" label={t('recentLoading')} />}>
          <RecentCallsList canCall={canCall} onCall={(n) => { onCall(n); setOpen(false); }} />
        </Suspense>
      </PopoverSurface>
    </Popover>
  );
}
