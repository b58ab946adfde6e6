import { useEffect } from 'react';
import type { NavEntry, RemoteManifest } from '@tongdai/platform';
import { matchPath } from '@tongdai/platform';

export const APP_NAME = 'Tongdai';

/** The document title of a screen: "<screen> · Tongdai". */
export const pageTitle = (screen: string | null | undefined): string => (screen ? `${screen} · ${APP_NAME}` : APP_NAME);

/** Sets the document title while the screen is shown. */
export function useDocumentTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}

const first = (path: string) => path.split('/').filter(Boolean)[0] ?? '';

/**
 * The label of a remote's screen, from the declarations the host already has: its own nav entry
 * (/etelecom/list-hotline beside /etelecom/switchboards), else the nav entry of the route's area
 * (the one whose first path segment is the route's, or its plural: /role/add → /roles), plus
 * "add"/"edit" for those routes. A new screen gets its title from its manifest.
 */
export function remoteScreenLabel(manifests: readonly Pick<RemoteManifest, 'routes' | 'nav'>[], pathname: string, actions: { add: string; edit: string }): string | null {
  const m = manifests.find((x) => x.routes.some((r) => matchPath(r.path, pathname)));
  if (!m) return null;
  const area = first(pathname);
  const entry: NavEntry | undefined = m.nav.find((e) => e.path === pathname) ??
    m.nav.find((e) => first(e.path) === area) ?? m.nav.find((e) => first(e.path).startsWith(area) || area.startsWith(first(e.path)));
  if (!entry) return null;
  const segments = pathname.split('/').filter(Boolean);
  const action = segments.includes('add') ? actions.add : segments.includes('edit') ? actions.edit : null;
  return action ? `${action} – ${entry.label}` : entry.label;
}
