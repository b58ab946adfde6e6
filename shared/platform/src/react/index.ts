export { PlatformProviders, queryClient, useDarkMode } from './PlatformProviders';
export { useSession, useCan } from './hooks';
