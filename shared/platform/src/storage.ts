import { STORAGE_KEYS } from '@tongdai/contracts/lean';

/** localStorage that survives being absent (private mode, tests). */
export const storage = {
  get(key: string): string | null {
    try { return globalThis.localStorage?.getItem(key) ?? null; } catch { return null; }
  },
  set(key: string, value: string): void {
    try { globalThis.localStorage?.setItem(key, value); } catch { /* quota or disabled: keep in memory only */ }
  },
  remove(key: string): void {
    try { globalThis.localStorage?.removeItem(key); } catch { /* ignore */ }
  },
  /** Clears local storage (SPEC §8), all of it but the dark-mode choice: see docs/adr/0004. */
  clearSession(): void {
    try {
      const dark = globalThis.localStorage.getItem(STORAGE_KEYS.darkMode);
      globalThis.localStorage.clear();
      if (dark !== null) globalThis.localStorage.setItem(STORAGE_KEYS.darkMode, dark);
    } catch { /* ignore */ }
  },
  getJson<T>(key: string): T | null {
    const raw = storage.get(key);
    if (!raw) return null;
    try { return JSON.parse(raw) as T; } catch { return null; }
  },
};
