import i18next, { type i18n as I18n } from 'i18next';
import { getOrCreateGlobalSingleton } from './global';

/** One i18next instance for the page; each package registers its own namespace of strings. */
export const i18n: I18n = getOrCreateGlobalSingleton('i18n', () => {
  const instance = i18next.createInstance();
  void instance.init({ lng: 'vi', fallbackLng: 'vi', resources: {}, interpolation: { escapeValue: false }, initAsync: false });
  return instance;
});

export function registerTranslations(ns: string, strings: Record<string, unknown>): void {
  i18n.addResourceBundle('vi', ns, strings, true, true);
}
