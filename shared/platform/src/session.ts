import { BehaviorSubject } from './rx';
import type { Observable } from 'rxjs';
import { STORAGE_KEYS } from '@tongdai/contracts/lean';
import type { PaymentCheck, SessionUser } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from './global';
import { storage } from './storage';

export interface SessionState {
  token: string | null;
  maDn: string | null;
  user: SessionUser | null;
  /** Display data that is not part of SPEC's kept user: full name, tenant name. */
  profile: { fullName: string; username: string; tenantName: string } | null;
  payment: PaymentCheck | null;
}

const PROFILE_KEY = 'tongdai.profile';
const PAYMENT_KEY = 'tongdai.payment';

function readStored(): SessionState {
  return {
    token: storage.get(STORAGE_KEYS.token),
    maDn: storage.get(STORAGE_KEYS.maDn),
    user: storage.getJson<SessionUser>(STORAGE_KEYS.user),
    profile: storage.getJson(PROFILE_KEY),
    payment: storage.getJson<PaymentCheck>(PAYMENT_KEY),
  };
}

const subject = getOrCreateGlobalSingleton('session', () => new BehaviorSubject<SessionState>(readStored()));

/** The one session of the page, the same object in the host and every remote. */
export const session = {
  state$: subject.asObservable() as Observable<SessionState>,
  get(): SessionState {
    return subject.getValue();
  },
  isLoggedIn(): boolean {
    const s = subject.getValue();
    return !!s.token && !!s.maDn && !!s.user;
  },
  /** Host only: after login. Keys of SPEC §3: token, ma_dn, user {name, permissions}. */
  start(next: SessionState): void {
    if (next.token) storage.set(STORAGE_KEYS.token, next.token);
    if (next.maDn) storage.set(STORAGE_KEYS.maDn, next.maDn);
    storage.set(STORAGE_KEYS.user, JSON.stringify(next.user));
    storage.set(PROFILE_KEY, JSON.stringify(next.profile));
    storage.set(PAYMENT_KEY, JSON.stringify(next.payment));
    subject.next(next);
  },
  setToken(token: string): void {
    storage.set(STORAGE_KEYS.token, token);
    subject.next({ ...subject.getValue(), token });
  },
  setPayment(payment: PaymentCheck): void {
    storage.set(PAYMENT_KEY, JSON.stringify(payment));
    subject.next({ ...subject.getValue(), payment });
  },
  /** Clears local storage (keeping display preferences) and the in-memory session. */
  clear(): void {
    storage.clearSession();
    subject.next({ token: null, maDn: null, user: null, profile: null, payment: null });
  },
};
