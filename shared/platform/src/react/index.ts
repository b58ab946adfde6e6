export { PlatformProviders, queryClient, useDarkMode } from './PlatformProviders';
export { useSession, useCan } from './hooks';
export { useLiveMonitor, useServerNow, LIVE_MONITOR_KEY, FIGURES_DEBOUNCE_MS, type LiveMonitor } from './live';
export { useRefetchOnCallEnd } from './call-end';
