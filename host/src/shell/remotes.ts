// By deep path, not the shared rxjs loaded whole (shared/platform/src/rx.ts says why).
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { addErrorHandler, getAppNames, registerApplication, start, triggerAppChange, type LifeCycles } from 'single-spa';
import { getRuntimeConfig, isRemoteManifest, matchPath, whenIdle, type RemoteManifest } from '@tongdai/platform';
import { routes, type ReleaseInfo } from '@tongdai/contracts';
import { SETTINGS_ROUTES } from '../settings/paths';
import { checkRelease } from './release';
import { acceptManifests } from './validate-manifests';

/**
 * A remote's state on this page. `incompatible`: its release declares a platform contract this host
 * does not provide (ADR 0053): none of its code was run, and its area says it is being updated.
 */
export type RemoteState =
  | { id: string; status: 'loading' }
  | { id: string; status: 'ready'; manifest: RemoteManifest; release: ReleaseInfo }
  | { id: string; status: 'error' }
  | { id: string; status: 'incompatible'; release: ReleaseInfo | null };

export const HOST_ROUTES = [routes.dashboard(), '/', ...SETTINGS_ROUTES];
const OUTSIDE_SHELL = [routes.login(), routes.signup()];

/** Manifest state per remote, and the remotes whose app failed to load or mount. */
export const remotes$ = new BehaviorSubject<RemoteState[]>([]);
export const brokenApps$ = new BehaviorSubject<ReadonlySet<string>>(new Set());

function setRemote(next: RemoteState) {
  remotes$.next(remotes$.getValue().map((r) => (r.id === next.id ? next : r)));
}

const brokenAt = new Map<string, number>();

function markBroken(id: string, broken: boolean) {
  if (broken) brokenAt.set(id, Date.now());
  const s = new Set(brokenApps$.getValue());
  if (broken) s.add(id); else s.delete(id);
  brokenApps$.next(s);
}

/** Mount never rejects: a throwing mount would leave single-spa stuck until a reload. */
function guard(id: string, lc: LifeCycles): LifeCycles {
  const wrap = (fn: unknown) => async (props: unknown) => {
    try {
      await (fn as (p: unknown) => Promise<unknown>)(props);
      if (fn === lc.mount) markBroken(id, false);
    } catch (e) {
      console.error(`[tongdai] ${id} lifecycle failed`, e);
      markBroken(id, true);
    }
  };
  return { bootstrap: wrap(lc.bootstrap), mount: wrap(lc.mount), unmount: wrap(lc.unmount) };
}

function activeWhen(m: RemoteManifest) {
  if (m.persistent) return (loc: Location) => !OUTSIDE_SHELL.some((p) => loc.pathname.startsWith(p));
  return (loc: Location) => m.routes.some((r) => matchPath(r.path, loc.pathname));
}

function register(m: RemoteManifest) {
  if (getAppNames().includes(m.id)) return;
  registerApplication({
    name: m.id,
    app: async () => guard(m.id, (await m.lifecycles()) as LifeCycles),
    activeWhen: activeWhen(m),
  });
}

/** Fetch a remote's app (and, from there, its screens) while idle: the first click is instant. */
function preloadApp(m: RemoteManifest) {
  if (!m.routes.length) return;
  whenIdle(() => void m.lifecycles().catch(() => undefined), 500);
}

async function loadOne(id: string): Promise<void> {
  setRemote({ id, status: 'loading' });
  try {
    // Its release first, before any of its code runs: a contract this host does not provide refuses it.
    const checked = await checkRelease(getRuntimeConfig().remotes[id]);
    if (!checked.ok) {
      if (checked.reason === 'unreachable') throw new Error(`${id}: release.json unreachable`);
      console.error(`[tongdai] remote ${id} refused: its release ${checked.release?.version ?? '(none)'} asks for the platform ${checked.release?.platform ?? '(nothing)'}`);
      return setRemote({ id, status: 'incompatible', release: checked.release });
    }
    const mod = await loadRemote<{ default: unknown }>(`${id}/manifest`);
    const manifest = mod?.default;
    if (!isRemoteManifest(manifest)) throw new Error(`${id}/manifest is not a remote manifest`);
    const [accepted] = acceptManifests([manifest], [...HOST_ROUTES, ...claimedRoutes()], process.env.NODE_ENV !== 'production');
    setRemote({ id, status: 'ready', manifest: accepted, release: checked.release });
    register(accepted);
    triggerAppChange();
    preloadApp(accepted);
  } catch (e) {
    console.error(`[tongdai] remote ${id} could not be loaded`, e);
    setRemote({ id, status: 'error' });
  }
}

function claimedRoutes(): string[] {
  return remotes$.getValue().flatMap((r) => (r.status === 'ready' ? r.manifest.routes.map((x) => x.path) : []));
}

let started = false;

/** Loads every remote's manifest in parallel, registers one single-spa app per remote. */
export function startRemotes(): void {
  if (started) return;
  started = true;
  addErrorHandler((err) => markBroken(err.appOrParcelName, true));
  const ids = Object.keys(getRuntimeConfig().remotes);
  remotes$.next(ids.map((id) => ({ id, status: 'loading' })));
  ids.forEach((id) => void loadOne(id));
  start({ urlRerouteOnly: true });
}

/** single-spa reloads an app in LOAD_ERROR only 200 ms after the failure. */
const SINGLE_SPA_RELOAD_DELAY = 200;

/** Retry: reload a failed manifest, or let single-spa try the failed app again. */
export function retryRemote(id: string): void {
  const r = remotes$.getValue().find((x) => x.id === id);
  if (r?.status === 'error') void loadOne(id);
  const wait = Math.max(0, (brokenAt.get(id) ?? 0) + SINGLE_SPA_RELOAD_DELAY + 10 - Date.now());
  setTimeout(() => {
    markBroken(id, false);
    triggerAppChange();
  }, wait);
}
