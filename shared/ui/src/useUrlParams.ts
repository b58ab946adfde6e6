import { useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The URL's query and one way to change it. Each change starts from the previous change, not from
 * the params of the render that scheduled it: react-router's own updater reads that render's, so
 * two changes made before the screen renders again (a filter, then another; a debounced search
 * after a dialog opened) kept only the last one. React Router 7 applies a navigation in a
 * transition, so a render can come between a change and its URL (a list's data arriving) still
 * showing the old query: only a query that differs from the one last seen (the change landed, or
 * the user went back) replaces the latest change.
 */
export function useUrlParams(): [URLSearchParams, (change: (p: URLSearchParams) => void, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const seen = useRef(params.toString());
  if (params.toString() !== seen.current) {
    seen.current = params.toString();
    latest.current = params;
  }
  const update = (change: (p: URLSearchParams) => void, options?: { replace?: boolean }) => {
    const next = new URLSearchParams(latest.current);
    change(next);
    latest.current = next;
    setParams(next, options);
  };
  return [params, update];
}
