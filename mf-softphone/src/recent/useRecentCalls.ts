import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { callBus, pbxEvents$ } from '@tongdai/platform';
import { fetchMissedSince, lastSeen, RECENT_KEY } from './recent-api';

/**
 * The badge of the recent calls: the calls this agent missed since the list was last opened,
 * refreshed when one of the agent's calls ends. The API's "ended" event leaves once the call's
 * record is written, so the refetch finds it. Events of other agents' calls are ignored: the
 * calls whose ringing named this extension are remembered until they end.
 */
export function useMissedBadge(extension: string | undefined) {
  const qc = useQueryClient();
  const seen = useMemo(() => (extension ? lastSeen(extension) : null), [extension]);
  const [since, setSince] = useState(() => seen?.get() ?? '');
  useEffect(() => setSince(seen?.get() ?? ''), [seen]);
  const missed = useQuery({
    queryKey: [...RECENT_KEY, 'missed', extension, since],
    queryFn: () => fetchMissedSince(since),
    enabled: !!extension && !!since,
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    if (!extension) return;
    const refresh = () => void qc.invalidateQueries({ queryKey: RECENT_KEY });
    const mine = new Set<string>();
    const events = pbxEvents$.subscribe((e) => {
      if (e.type === 'ringing' && (e.caller === extension || e.callee === extension || e.extensions.includes(extension))) mine.add(e.callId);
      else if (e.type === 'ended' && (mine.delete(e.callId) || e.extension === extension)) refresh();
    });
    // The phone's own end too: a call refused at once never rang anyone.
    const own = callBus.calls$.subscribe((e) => { if (e.state === 'CALL_FAILED') refresh(); });
    return () => { events.unsubscribe(); own.unsubscribe(); };
  }, [extension, qc]);

  return {
    count: missed.data ?? 0,
    /** The agent opened the list: nothing is "new" any more. */
    clear: () => { if (seen) setSince(seen.markNow()); },
  };
}
