import type { ComponentType } from 'react';
import { FEATURES } from '@tongdai/contracts';
import type { NavEntry, RouteDef } from '@tongdai/platform';
import type { PbxPaths, PermSet } from './entity';

/**
 * Routes and navigation of a PBX area (SPEC §2 paths), all behind the purchased PBX feature.
 * Kept free of screens and schemas: the manifest imports this eagerly, screens load on demand.
 */
export const feature = FEATURES.pbx;

/** /x, /x/add, /x/edit/:id */
export const pagePaths = (list: string): PbxPaths => ({ list, add: `${list}/add`, edit: (id) => `${list}/edit/${id}` });
/** One SPEC route: add and edit open a dialog on the list (?dialog=new|<id>). */
export const dialogPaths = (list: string): PbxPaths => ({ list, add: `${list}?dialog=new`, edit: (id) => `${list}?dialog=${id}` });

type Screen = () => Promise<{ default: ComponentType }>;
const pick = <M>(screens: () => Promise<M>, name: keyof M): Screen => () => screens().then((m) => ({ default: m[name] as ComponentType }));

/** The list route and its SPEC add/edit routes (/x/add, /x/edit/:id), screens from one lazy chunk. */
export function areaRoutes(list: string, perm: PermSet, screens: () => Promise<{ List: ComponentType; Form: ComponentType }>): RouteDef[] {
  return [
    { path: list, loader: pick(screens, 'List'), permission: perm.view, feature },
    { path: `${list}/add`, loader: pick(screens, 'Form'), permission: perm.create, feature },
    { path: `${list}/edit/:id`, loader: pick(screens, 'Form'), permission: perm.edit, feature },
  ];
}

/** A list-only area (add/edit in a dialog): its one route. */
export function listRoute(list: string, perm: PermSet, screens: () => Promise<{ List: ComponentType }>): RouteDef[] {
  return [{ path: list, loader: pick(screens, 'List'), permission: perm.view, feature }];
}

export const areaNav = (label: string, path: string, icon: string, perm: PermSet): NavEntry => ({ label, path, icon, permission: perm.view, feature });
