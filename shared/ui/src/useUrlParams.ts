import { useLocation, useSearchParams } from 'react-router-dom';

/**
 * The latest change to the URL's query, shared by every hook on the screen (a list's filters and
 * its dialog are two hooks): a change made by one before the screen renders again is the start of
 * the next change made by the other. Keyed by the path and query last seen, so a navigation to
 * another screen (or back) starts afresh.
 */
const pending: { seen: string | null; latest: URLSearchParams } = { seen: null, latest: new URLSearchParams() };

/**
 * The URL's query and one way to change it. Each change starts from the previous change, not from
 * the params of the render that scheduled it: react-router's own updater reads that render's, so
 * two changes made before the screen renders again (a filter, then another; a debounced search
 * after a dialog opened; a dialog closed and another opened) kept only the last one. React Router 7
 * applies a navigation in a transition, so a render can come between a change and its URL (a list's
 * data arriving) still showing the old query: only a location that differs from the one last seen
 * (the change landed, or the user went elsewhere) replaces the latest change.
 */
export function useUrlParams(): [URLSearchParams, (change: (p: URLSearchParams) => void, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const here = `${pathname}?${params.toString()}`;
  if (here !== pending.seen) {
    pending.seen = here;
    pending.latest = params;
  }
  const update = (change: (p: URLSearchParams) => void, options?: { replace?: boolean }) => {
    // In the browser the address bar already holds every change made (BrowserRouter's navigate pushes
    // the history entry at once; only React's render of it waits in a transition): the base, whatever
    // has rendered. A render of the older location after one of the newer (a transition's render set
    // aside) had reset the pending change: a loaded machine kept "?range=last7" of direction + range
    // (carrier-report.spec, this session's slowed run). Elsewhere (a MemoryRouter) the pending change.
    const shown = typeof window !== 'undefined' && window.location?.pathname === pathname ? new URLSearchParams(window.location.search) : null;
    const next = new URLSearchParams(shown ?? pending.latest);
    change(next);
    pending.latest = next;
    setParams(next, options);
  };
  return [params, update];
}
