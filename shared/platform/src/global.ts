/**
 * Singletons live under one namespaced global key, so even a duplicated bundle of this
 * package (a remote built against another copy) finds the same instance.
 */
const KEY = '__tongdai_platform__';
type Registry = Record<string, unknown>;

function registry(): Registry {
  const g = globalThis as unknown as Record<string, Registry>;
  return (g[KEY] ??= {});
}

export function getOrCreateGlobalSingleton<T>(id: string, create: () => T): T {
  const r = registry();
  if (!(id in r)) r[id] = create();
  return r[id] as T;
}

/** Random id of THIS module instance: equal in host and remotes only if they share one copy. */
export const platformModuleInstanceId = Math.random().toString(36).slice(2, 10);
/** Id of the global singleton registry. */
export const platformInstanceId = getOrCreateGlobalSingleton('instanceId', () => platformModuleInstanceId);
