/**
 * What a request's checks read besides the session — a user's roles, the tenant's payment check and
 * system settings — kept in memory per tenant and labelled with the tenant's access version
 * (migration 0067, ADR 0064). The version is read with the session in the request's checks
 * statement; every write to those tables bumps it in its own transaction (triggers), so a value is
 * served only to a request that read the same version after that value was read: never older than
 * reading it again, on any instance.
 */
export class AccessCache {
  private readonly tenants = new Map<number, { version: bigint; values: Map<string, Promise<unknown>> }>();
  private size = 0;

  /** maxValues: over it the whole cache is dropped (a cheap bound; the next requests read again). */
  constructor(private readonly maxValues = 100_000) {}

  /**
   * The value of `key` for the tenant as of `version` (the access version this request read), read
   * with `load` when this version has not been read yet. A request that read an older version than
   * the one held (it started before a write another request has already seen) reads for itself and
   * leaves the cache alone.
   */
  get<T>(tenantId: number, version: string, key: string, load: () => Promise<T>): Promise<T> {
    const v = BigInt(version);
    const entry = this.tenants.get(tenantId);
    if (entry && entry.version > v) return load();
    const held = entry?.version === v ? (entry.values.get(key) as Promise<T> | undefined) : undefined;
    if (held) return held;
    if (this.size >= this.maxValues) this.clear();
    let current = this.tenants.get(tenantId);
    if (!current || current.version < v) {
      if (current) this.size -= current.values.size;
      current = { version: v, values: new Map() };
      this.tenants.set(tenantId, current);
    }
    const values = current.values;
    const loading = load();
    values.set(key, loading);
    this.size++;
    // A failed read is not kept: the next request tries again.
    loading.catch(() => {
      if (values.get(key) !== loading) return;
      values.delete(key);
      if (this.tenants.get(tenantId)?.values === values) this.size--;
    });
    return loading;
  }

  clear(): void {
    this.tenants.clear();
    this.size = 0;
  }
}
