import type { RemoteRegistry, RuntimeConfig } from '@tongdai/contracts';
import { session } from '@tongdai/platform';

/**
 * The remotes' entries for this page: the registry's release of each remote it lists (its entry read
 * against the page's origin), the config's entry for the others. A registry that cannot be read leaves
 * the config's entries (the page still starts; ADR 0053).
 */
export async function resolveRemotes(config: RuntimeConfig, get: typeof fetch = fetch, origin: string = globalThis.location?.origin ?? 'http://localhost', who?: string): Promise<Record<string, string>> {
  if (!config.registry) return config.remotes;
  try {
    const res = await get(new URL(config.registry, origin).href, { cache: 'no-cache' });
    // None yet (nothing was ever promoted on this deployment): the built-in remotes run, as configured.
    if (res.status === 404) return config.remotes;
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const registry = (await res.json()) as RemoteRegistry;
    const entries = { ...config.remotes };
    for (const [id, r] of Object.entries(registry.remotes ?? {})) {
      if (!(id in entries) || typeof r?.entry !== 'string') continue;
      // A canary: its share of users (the same ones at every load) run it instead.
      const canary = r.canary && typeof r.canary.entry === 'string' && cohortBucket(who ?? pageCohort(), id) < r.canary.percent;
      entries[id] = new URL(canary ? r.canary!.entry : r.entry, origin).href;
    }
    return entries;
  } catch (e) {
    console.error('[tongdai] the registry of releases could not be read; the configured remotes run', e);
    return config.remotes;
  }
}

/**
 * Who the page is for, as far as a canary goes: the signed-in user (tenant and user name, from the
 * session the page starts with), else an id of this page alone — nothing is stored for it (a signed-out
 * browser keeps nothing: SPEC §8). The same user gets the same side of every canary at every load, in any
 * browser, once signed in.
 */
export function cohortId(): string {
  const s = session.get();
  if (s.maDn && s.profile?.username) return `${s.maDn}/${s.profile.username}`;
  return `page/${Math.random().toString(36).slice(2, 12)}`;
}

let atStart: string | null = null;

/** The cohort this page started as (a sign-in later does not move the page to the other side of a canary). */
export function pageCohort(): string {
  return (atStart ??= cohortId());
}

/** `who`'s bucket (0–99) for `remote`'s canary: FNV-1a of both, so one user is not in every canary's first 10 %. */
export function cohortBucket(who: string, remote: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${who}|${remote}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 100;
}
