import { Button, Caption1, mergeClasses, Spinner, Text, Tooltip } from '@fluentui/react-components';
import { ArrowDownLeftRegular, ArrowUpRightRegular, CallMissedRegular } from '@fluentui/react-icons';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CALL_RESULTS, formatDuration, type RecentCall } from '@tongdai/contracts';
import { NS } from '../i18n';
import { fetchRecentPage, RECENT_KEY } from './recent-api';
import { useRecentStyles } from './styles';
import { formatViDateTime } from '@tongdai/ui';


function Row({ call, canCall, onCall }: { call: RecentCall; canCall: boolean; onCall: (n: string) => void }) {
  const { t } = useTranslation(NS);
  const s = useRecentStyles();
  const Icon = call.missed ? CallMissedRegular : call.direction === 'outgoing' ? ArrowUpRightRegular : ArrowDownLeftRegular;
  const direction = call.missed ? t('recentMissedCall') : call.direction === 'outgoing' ? t('recentOutgoing') : t('recentIncoming');
  return (
    <li>
      <Tooltip content={canCall ? t('recentRedial', { number: call.number }) : t('cannotCall')} relationship="description">
        <button
          type="button" className={s.row} disabled={!canCall} onClick={() => onCall(call.dial)}
          data-testid="softphone-recent-row" data-direction={call.direction} data-missed={String(call.missed)} data-number={call.number}
        >
          <Icon className={mergeClasses(s.icon, call.missed && s.missed)} aria-label={direction} />
          <span className={s.who}>
            <Text weight="semibold" className={mergeClasses(s.line, call.missed && s.missed)} data-testid="softphone-recent-number">{call.name ? `${call.name} · ${call.number}` : call.number}</Text>
            <Caption1 className={mergeClasses(s.meta, s.line)}>
              {direction} · {formatViDateTime(call.started_at, { seconds: false })} · {CALL_RESULTS[call.result]}
            </Caption1>
          </span>
          <Text className={s.talk} data-testid="softphone-recent-talk" aria-label={t('timer')}>{formatDuration(call.billsec)}</Text>
        </button>
      </Tooltip>
    </li>
  );
}

/** The agent's recent calls, 10 at a time; a click redials the other party. */
export default function RecentCallsList({ canCall, onCall }: { canCall: boolean; onCall: (n: string) => void }) {
  const { t } = useTranslation(NS);
  const s = useRecentStyles();
  const q = useInfiniteQuery({
    queryKey: [...RECENT_KEY, 'list'],
    queryFn: ({ pageParam }) => fetchRecentPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });
  const calls = q.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className={s.panel} data-testid="softphone-recent">
      <Text as="h2" weight="semibold" size={400} className={s.title}>{t('recent')}</Text>
      {q.isPending && <Spinner size="tiny" label={t('recentLoading')} />}
      {q.isError && <Text role="alert" data-testid="softphone-recent-error">{t('recentError')}</Text>}
      {q.isSuccess && !calls.length && <Text className={s.meta} data-testid="softphone-recent-empty">{t('recentEmpty')}</Text>}
      {calls.length > 0 && <ul className={s.list}>{calls.map((c) => <Row key={c.id} call={c} canCall={canCall} onCall={onCall} />)}</ul>}
      {q.hasNextPage && (
        <Button appearance="subtle" size="small" onClick={() => void q.fetchNextPage()} disabledFocusable={q.isFetchingNextPage} data-testid="softphone-recent-more">
          {t('recentMore')}
        </Button>
      )}
    </section>
  );
}
