import { BehaviorSubject, ReplaySubject, Subject, filter } from './rx';
import type { Observable } from 'rxjs';
import { INITIAL_CALL_STATE } from '@tongdai/contracts/lean';
import type { CallEvent, CallState } from '@tongdai/contracts';
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

/**
 * Click-to-call (issue 15): what a screen asks the persistent softphone to dial. A screen that
 * shows a masked number never holds the real one: it names the customer or the call record, and
 * the softphone asks the API for the number to dial (it reaches the softphone's memory only, never
 * the page's data). `display` is what the screen showed (masked or not), for the softphone's notices.
 */
export type DialRequest =
  /** A number the screen may know as it is (an extension, a number typed by the user). */
  | { kind: 'number'; number: string }
  /** The phone number of a customer (GET /customers/:id/dial). */
  | { kind: 'customer'; customerId: number; display: string }
  /** The outside party of a call record the viewer may see (GET /reports/call-history/:id/dial). */
  | { kind: 'call'; callId: number; display: string }
  /** A campaign's contact after the server allowed "Gọi" (Decree 91 checked): GET its tenant path for the number. */
  | { kind: 'campaign'; dialPath: string; display: string };

interface DialBus {
  requests: Subject<DialRequest>;
  /** The softphone can dial now: registered and not in a call. false until a softphone says so. */
  ready: BehaviorSubject<boolean>;
}

const dialing = getOrCreateGlobalSingleton<DialBus>('dialBus', () => ({ requests: new Subject<DialRequest>(), ready: new BehaviorSubject(false) }));

/** Any remote: asks the softphone to dial (nothing happens when no softphone is mounted or it is not ready). */
export function requestDial(request: DialRequest): void {
  dialing.requests.next(request);
}

/** The softphone's side of click-to-call: the requests to dial, and its readiness to announce. */
export const dialBus = {
  /** Requests to dial, as screens make them (only the softphone listens). */
  requests$: dialing.requests.asObservable() as Observable<DialRequest>,
  /** Whether a click-to-call button is enabled: the softphone is registered and idle. */
  ready$: dialing.ready.asObservable() as Observable<boolean>,
  get ready(): boolean {
    return dialing.ready.getValue();
  },
};

/** Only the softphone says whether it can dial (registered, no call in progress). */
export function publishPhoneReady(ready: boolean): void {
  if (dialing.ready.getValue() !== ready) dialing.ready.next(ready);
}
