import type { RemoteRegistry, RuntimeConfig } from '@tongdai/contracts';

/**
 * The remotes' entries for this page: the registry's release of each remote it lists (its entry read
 * against the page's origin), the config's entry for the others. A registry that cannot be read leaves
 * the config's entries (the page still starts; ADR 0053).
 */
export async function resolveRemotes(config: RuntimeConfig, get: typeof fetch = fetch, origin: string = globalThis.location?.origin ?? 'http://localhost'): Promise<Record<string, string>> {
  if (!config.registry) return config.remotes;
  try {
    const res = await get(new URL(config.registry, origin).href, { cache: 'no-cache' });
    // None yet (nothing was ever promoted on this deployment): the built-in remotes run, as configured.
    if (res.status === 404) return config.remotes;
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const registry = (await res.json()) as RemoteRegistry;
    const entries = { ...config.remotes };
    for (const [id, r] of Object.entries(registry.remotes ?? {})) if (id in entries && typeof r?.entry === 'string') entries[id] = new URL(r.entry, origin).href;
    return entries;
  } catch (e) {
    console.error('[tongdai] the registry of releases could not be read; the configured remotes run', e);
    return config.remotes;
  }
}
