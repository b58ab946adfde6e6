import { BehaviorSubject } from './rx';
import { STORAGE_KEYS } from '@tongdai/contracts/lean';
import { getOrCreateGlobalSingleton } from './global';
import { storage } from './storage';

const darkMode$ = getOrCreateGlobalSingleton('darkMode', () => {
  const stored = storage.get(STORAGE_KEYS.darkMode);
  return new BehaviorSubject<boolean>(stored === null ? false : stored === '1');
});

/** Dark mode, persisted locally. */
export const theme = {
  darkMode$: darkMode$.asObservable(),
  isDark: () => darkMode$.getValue(),
  setDark(dark: boolean): void {
    storage.set(STORAGE_KEYS.darkMode, dark ? '1' : '0');
    darkMode$.next(dark);
  },
  subscribe(cb: () => void): () => void {
    const s = darkMode$.subscribe(cb);
    return () => s.unsubscribe();
  },
};
