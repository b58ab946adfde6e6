import type { ComponentType } from 'react';
import { EntityFormScreen, EntityListScreen, type EntityDef } from '@tongdai/ui';
import { ORG } from './org.entities';

/** Route components of the organisation area: the kit's screens bound to each entity. */
const screens = <T extends { id: number }>(entity: EntityDef<T>): { List: ComponentType; Form: ComponentType } => ({
  List: () => <EntityListScreen entity={entity} />,
  Form: () => <EntityFormScreen entity={entity} />,
});

export const department = screens(ORG.department);
export const team = screens(ORG.team);
export const branch = screens(ORG.branch);
export const project = screens(ORG.project);
export const dataSource = screens(ORG.dataSource);
export const profileStatus = screens(ORG.profileStatus);
/** /groups: the list, with create and edit in a dialog kept in ?dialog=new|<id> (back closes it). */
export const group = screens(ORG.group);
