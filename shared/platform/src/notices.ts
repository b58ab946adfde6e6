import { Subject } from './rx';
import { STORAGE_KEYS } from '@tongdai/contracts/lean';
import { getOrCreateGlobalSingleton } from './global';

export interface Notice {
  intent: 'success' | 'error' | 'warning' | 'info';
  message: string;
}

const notices = getOrCreateGlobalSingleton('notices', () => new Subject<Notice>());

/** Toasts: any remote posts, the host shell shows them. */
export const notices$ = notices.asObservable();
export function notify(intent: Notice['intent'], message: string): void {
  notices.next({ intent, message });
}

/** A message that must survive a redirect (shown once by the next page). */
export const flash = {
  set(message: string): void {
    try { globalThis.sessionStorage?.setItem(STORAGE_KEYS.flash, message); } catch { /* ignore */ }
  },
  take(): string | null {
    try {
      const m = globalThis.sessionStorage?.getItem(STORAGE_KEYS.flash) ?? null;
      globalThis.sessionStorage?.removeItem(STORAGE_KEYS.flash);
      return m;
    } catch { return null; }
  },
};
