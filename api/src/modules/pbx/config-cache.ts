import type { PbxConfig } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { loadPbxConfig } from './config';

/**
 * PBX configuration snapshots for call routing, one per tenant, reused until the tenant's
 * configuration changes. Every write path that changes what a call does (PBX objects, subscribers)
 * calls `pbxConfigChanged(tenantId)` once it has committed; the next call reloads. Other API
 * instances hear of it through the relays the composition root adds (Redis, issue 42); a short TTL
 * bounds staleness for a change no relay carried (Redis away).
 */

const versions = new Map<number, number>();
let anyVersion = 0;
const relays = new Set<(tenantId: number) => void>();

function bump(tenantId: number): void {
  versions.set(tenantId, (versions.get(tenantId) ?? 0) + 1);
  anyVersion++;
}

/** Marks a tenant's routing configuration as changed (cheap; call it after the write commits). */
export function pbxConfigChanged(tenantId: number): void {
  bump(tenantId);
  for (const relay of relays) relay(tenantId);
}

/** Another instance changed a tenant's configuration: dropped here, not relayed again. */
export const pbxConfigChangedElsewhere: (tenantId: number) => void = bump;

/** Tells every change made here to `relay` (the other instances); returns the function that stops it. */
export function relayConfigChanges(relay: (tenantId: number) => void): () => void {
  relays.add(relay);
  return () => void relays.delete(relay);
}

/** Bumped by every change of any tenant (caches keyed by something else than a tenant, e.g. a DID). */
export const configGeneration = (): number => anyVersion;

const versionOf = (tenantId: number): number => versions.get(tenantId) ?? 0;

export type ConfigLoader = (tx: Queryable, tenantId: number, maDn: string) => Promise<PbxConfig>;

interface Entry {
  version: number;
  loadedAt: number;
  config: Promise<PbxConfig>;
}

export class PbxConfigCache {
  private readonly entries = new Map<number, Entry>();
  private readonly ttlMs: number;
  private readonly load: ConfigLoader;

  constructor(
    private readonly db: Db,
    opts: { ttlMs?: number; load?: ConfigLoader } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 10_000;
    this.load = opts.load ?? loadPbxConfig;
  }

  /**
   * The tenant's snapshot. The same object is returned while it is current: the routing engine
   * indexes a configuration once per object, so callers must not mutate it.
   */
  get(tenantId: number, maDn: string): Promise<PbxConfig> {
    const version = versionOf(tenantId);
    const now = Date.now();
    const hit = this.entries.get(tenantId);
    if (hit && hit.version === version && now - hit.loadedAt < this.ttlMs) return hit.config;
    // Concurrent calls share one load; a failed load is forgotten so the next call retries.
    const config = this.db.withTenant(tenantId, (tx) => this.load(tx, tenantId, maDn));
    const entry: Entry = { version, loadedAt: now, config };
    this.entries.set(tenantId, entry);
    config.catch(() => {
      if (this.entries.get(tenantId) === entry) this.entries.delete(tenantId);
    });
    return config;
  }
}
