import { filter, ReplaySubject, type Observable } from 'rxjs';
import { INITIAL_CALL_STATE, type CallEvent, type CallState } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from './global';

interface Bus {
  id: string;
  subject: ReplaySubject<CallEvent>;
}

const bus = getOrCreateGlobalSingleton<Bus>('callBus', () => {
  const subject = new ReplaySubject<CallEvent>(1);
  subject.next({ kind: 'tongdai.call-event', version: 1, state: INITIAL_CALL_STATE, at: Date.now() });
  return { id: Math.random().toString(36).slice(2, 10), subject };
});

/** Read-only view of the call-event bus for every remote. */
export const callBus = {
  /** Id of this bus instance: the same in host and remotes when the singleton holds. */
  id: bus.id,
  calls$: bus.subject.asObservable() as Observable<CallEvent>,
  getStream(state: CallState): Observable<CallEvent> {
    return bus.subject.pipe(filter((e) => e.state === state));
  },
};

/** Only the softphone publishes call states. */
export function publishCallState(state: CallState, extra: Pick<CallEvent, 'direction' | 'remoteNumber'> = {}): void {
  bus.subject.next({ kind: 'tongdai.call-event', version: 1, state, at: Date.now(), ...extra });
}
