import { FEATURES, type PbxResource } from '@tongdai/contracts';
import { pbxApi } from '@tongdai/platform';
import { crudResource, defineEntity, type CrudEndpoints, type CrudResource, type EntityDef } from '@tongdai/ui';
import { codeCompany, toPaged } from './pbx.api';
import './fieldKinds';

/**
 * A PBX area as one kit declaration: the partner API (/pbx) resource, every call naming the tenant
 * as CodeCompany, the purchased PBX feature, and the PBX field kinds registered.
 */
export const pbxResource = (name: PbxResource, endpoints?: Partial<CrudEndpoints>): CrudResource => crudResource({
  scope: 'pbx', name, base: `partner/${name}`, endpoints, client: pbxApi,
  searchParams: () => ({ CodeCompany: codeCompany() }),
  toPaged: toPaged as CrudResource['toPaged'],
});

export function pbxEntity<T extends { id: number }>(def: Omit<EntityDef<T>, 'feature' | 'api'> & { resource: PbxResource | CrudResource }): EntityDef<T> {
  const { resource, ...rest } = def;
  return defineEntity({ ...rest, feature: FEATURES.pbx, api: typeof resource === 'string' ? pbxResource(resource) : resource });
}
