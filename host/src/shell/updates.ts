// By deep path, not the shared rxjs loaded whole (shared/platform/src/rx.ts says why).
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import { getRuntimeConfig } from '@tongdai/platform';
import { resolveRemotes } from '../registry';

/**
 * Releases promoted since this page started (ADR 0053): the remotes whose registered entry is no longer
 * the one this page runs. Nothing is swapped on a live page (a call in progress, a form half filled):
 * the user is told and reloads when it suits them.
 */
export const updates$ = new BehaviorSubject<string[]>([]);

/** How often the registry is read again (no-cache): a promotion is announced within this. */
export const UPDATE_CHECK_MS = 60_000;

/** One look at the registry: which remotes it now names another release of. */
export async function checkForUpdates(get: typeof fetch = fetch): Promise<string[]> {
  const running = getRuntimeConfig();
  if (!running.registry) return [];
  // The configured entries as the fallback: a registry that cannot be read announces nothing.
  const now = await resolveRemotes({ ...running, remotes: running.remotes }, get);
  const changed = Object.keys(running.remotes).filter((id) => now[id] !== running.remotes[id]);
  if (changed.join() !== updates$.getValue().join()) updates$.next(changed);
  return changed;
}

let timer: ReturnType<typeof setInterval> | null = null;

/** Reads the registry every `everyMs` and when the tab comes back to the front. */
export function watchUpdates(everyMs = UPDATE_CHECK_MS): () => void {
  if (timer || !getRuntimeConfig().registry) return () => undefined;
  const look = () => void checkForUpdates().catch(() => undefined);
  timer = setInterval(look, everyMs);
  const onVisible = () => document.visibilityState === 'visible' && look();
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    if (timer) clearInterval(timer);
    timer = null;
    document.removeEventListener('visibilitychange', onVisible);
  };
}
