import { FEATURES } from '@tongdai/contracts';
import type { NavEntry } from '@tongdai/platform';

/**
 * Navigation of a PBX area, behind the purchased PBX feature. Kept free of screens and schemas:
 * the manifest imports this eagerly, screens load on demand (routes: crudRoutes, paths: contracts).
 */
export const feature = FEATURES.pbx;

export const areaNav = (label: string, path: string, icon: string, perm: { view: string }): NavEntry => ({ label, path, icon, permission: perm.view, feature });
