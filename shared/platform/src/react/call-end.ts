import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { pbxEvents$ } from '../realtime';

/**
 * Refetches the queries under `queryKey` when a call the viewer may see ends (the API's "ended"
 * leaves once the call's record is written, so the refetch finds it): a call history that is open
 * shows the call that just ended (issue 30). Several ends within `gapMs` refetch once.
 */
export function useRefetchOnCallEnd(queryKey: readonly unknown[], gapMs = 1000): void {
  const qc = useQueryClient();
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const sub = pbxEvents$.subscribe((e) => {
      if (e.type !== 'ended' || timer) return;
      timer = setTimeout(() => {
        timer = null;
        void qc.invalidateQueries({ queryKey: JSON.parse(key) as unknown[] });
      }, gapMs);
    });
    return () => {
      sub.unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [qc, key, gapMs]);
}
