import type { ComponentType } from 'react';
import type { CrudPaths } from '@tongdai/contracts';

/** One screen a remote owns. */
export interface RouteDef {
  path: string;
  /** Lazy screen: loaded on first visit. */
  loader: () => Promise<{ default: ComponentType }>;
  permission?: string;
  feature?: string;
}

export interface NavEntry {
  label: string;
  path: string;
  /** Name of a @fluentui/react-icons icon the host maps (keeps icons out of manifests). */
  icon: string;
  permission?: string;
  feature?: string;
  /** A menu group of its own ("Viễn thông"): entries of every remote with the same group are listed together under it. */
  group?: string;
}

/** What every remote exposes as `./manifest`. Tagged: never instanceof across remotes. */
export interface RemoteManifest {
  kind: 'tongdai.remote-manifest';
  version: 1;
  id: string;
  /** Vietnamese name of the area, for navigation groups and error cards. */
  title: string;
  routes: RouteDef[];
  nav: NavEntry[];
  /** true: mounted on every screen but /login and /signup (the softphone). */
  persistent?: boolean;
  /** single-spa lifecycles, loaded when the remote is first active. */
  lifecycles: () => Promise<{ bootstrap: unknown; mount: unknown; unmount: unknown }>;
}

export function defineRemoteManifest(m: Omit<RemoteManifest, 'kind' | 'version'>): RemoteManifest {
  return { kind: 'tongdai.remote-manifest', version: 1, ...m };
}

export function isRemoteManifest(x: unknown): x is RemoteManifest {
  return !!x && (x as RemoteManifest).kind === 'tongdai.remote-manifest' && (x as RemoteManifest).version === 1;
}

/** '/customer/edit/:id' matches '/customer/edit/12'. */
export function matchPath(pattern: string, pathname: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') ? b[i] !== '' : seg === b[i]);
}

type Lazy<M> = () => Promise<M>;
const pick = <M>(screens: Lazy<M>, name: keyof M): RouteDef['loader'] => () => screens().then((m) => ({ default: m[name] as ComponentType }));

/**
 * The routes of one list area, from its paths (contracts `paths`): the list, and unless add/edit is
 * a dialog on the list, its add and edit screens, all from one lazy chunk exporting `List` and `Form`.
 */
export function crudRoutes(
  p: CrudPaths,
  permission: { view: string; create: string; edit: string },
  screens: Lazy<{ List: ComponentType; Form?: ComponentType }>,
  feature?: string,
): RouteDef[] {
  const list: RouteDef = { path: p.list, loader: pick(screens, 'List'), permission: permission.view, feature };
  if (p.dialog) return [list];
  const [, add, edit] = p.patterns;
  return [list, { path: add, loader: pick(screens, 'Form'), permission: permission.create, feature }, { path: edit, loader: pick(screens, 'Form'), permission: permission.edit, feature }];
}
