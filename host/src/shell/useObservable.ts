import { useSyncExternalStore } from 'react';
import type { BehaviorSubject } from 'rxjs';

export function useBehavior<T>(subject: BehaviorSubject<T>): T {
  return useSyncExternalStore(
    (cb) => { const s = subject.subscribe(cb); return () => s.unsubscribe(); },
    () => subject.getValue(),
  );
}
