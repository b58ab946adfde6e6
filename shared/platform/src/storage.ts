import { STORAGE_KEYS } from '@tongdai/contracts';

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
  /** Clears local storage except display preferences (dark mode, local settings): see docs/adr/0004. */
  clearSession(): void {
    try {
      const keep = [STORAGE_KEYS.darkMode, STORAGE_KEYS.settings].map((k) => [k, globalThis.localStorage.getItem(k)] as const);
      globalThis.localStorage.clear();
      for (const [k, v] of keep) if (v !== null) globalThis.localStorage.setItem(k, v);
    } catch { /* ignore */ }
  },
  getJson<T>(key: string): T | null {
    const raw = storage.get(key);
    if (!raw) return null;
    try { return JSON.parse(raw) as T; } catch { return null; }
  },
};
