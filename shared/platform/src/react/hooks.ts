import { useSyncExternalStore } from 'react';
import { session, type SessionState } from '../session';
import { can, featureEnabled } from '../access';

function subscribe(cb: () => void): () => void {
  const s = session.state$.subscribe(cb);
  return () => s.unsubscribe();
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, session.get, session.get);
}

/** Re-evaluates when the session changes. */
export function useCan(): { can: typeof can; featureEnabled: typeof featureEnabled } {
  useSession();
  return { can, featureEnabled };
}
