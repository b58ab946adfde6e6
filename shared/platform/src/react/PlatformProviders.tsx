import { useSyncExternalStore, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FluentProvider, IdPrefixProvider, webDarkTheme, webLightTheme } from '@fluentui/react-components';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { getOrCreateGlobalSingleton } from '../global';
import { i18n } from '../i18n';
import { theme } from '../theme';

/** The one QueryClient of the page, shared by every single-spa root. */
export const queryClient = getOrCreateGlobalSingleton(
  'queryClient',
  () => new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 15_000, refetchOnWindowFocus: false } } }),
);

export function useDarkMode(): [boolean, (dark: boolean) => void] {
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark, theme.isDark);
  return [dark, theme.setDark];
}

/**
 * Wraps each single-spa root: shared QueryClient, Fluent theme following dark mode, i18n and a
 * router on the shared browser history (unless the caller already sits in one). `idPrefix`
 * keeps Fluent ids unique across roots.
 */
export function PlatformProviders({ children, idPrefix, fill, router = true }: { children: ReactNode; idPrefix: string; fill?: boolean; router?: boolean }) {
  const [dark] = useDarkMode();
  return (
    <IdPrefixProvider value={`${idPrefix}-`}>
      <FluentProvider theme={dark ? webDarkTheme : webLightTheme} style={fill ? { minHeight: '100vh' } : { background: 'transparent' }}>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            {router ? <BrowserRouter>{children}</BrowserRouter> : children}
          </I18nextProvider>
        </QueryClientProvider>
      </FluentProvider>
    </IdPrefixProvider>
  );
}
