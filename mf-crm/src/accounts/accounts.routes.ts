import type { NavEntry, RouteDef } from '@tongdai/platform';

/** Screens of this area: added as they work (a manifest lists only screens that work). */
export const accountsRoutes: RouteDef[] = [];

export const accountsNav = (): NavEntry[] => [];
