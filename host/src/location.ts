import { useSyncExternalStore } from 'react';

/**
 * The host's top level routes without react-router: /login must not load it (first-load budget).
 * Inside the shell, react-router takes over; single-spa fires popstate on its pushState, so this
 * hook follows those navigations too.
 */
function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  return () => window.removeEventListener('popstate', cb);
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export function navigate(path: string, { replace = false } = {}): void {
  if (window.location.pathname === path) return;
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
