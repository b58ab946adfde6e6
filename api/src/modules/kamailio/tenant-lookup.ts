import { allNumberForms, nationalForm, tenantOfSipDomain } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { configGeneration } from '../pbx/pbx.service';

export interface CallTenant {
  tenantId: number;
  maDn: string;
}

/**
 * Which tenant a call belongs to, before any tenant is known: by the DID a trunk call arrives on
 * (a number belongs to one tenant in the whole platform) or by the SIP domain of a calling
 * extension. Both are tenant-less lookups (db.withSystem), cached until any PBX change.
 */
export class TenantLookup {
  private readonly byDid = new Map<string, CallTenant | null>();
  private readonly byDomain = new Map<string, CallTenant | null>();
  private generation = configGeneration();

  constructor(private readonly db: Db) {}

  private fresh(): void {
    if (this.generation === configGeneration()) return;
    this.generation = configGeneration();
    this.byDid.clear();
  }

  /** The tenant owning the DID (as received, or in its national form: +8428…, 8428…, 028…). */
  async ofDid(did: string): Promise<CallTenant | null> {
    this.fresh();
    const key = nationalForm(did);
    if (this.byDid.has(key)) return this.byDid.get(key)!;
    const forms = [...new Set([did, ...allNumberForms(did)])];
    const found = await this.db.withSystem(async (tx) => {
      const { rows } = await tx.query<{ tenant_id: number; ma_dn: string }>(
        'select n.tenant_id, t.ma_dn from pbx_numbers n join tenants t on t.id = n.tenant_id where n.number = any($1) limit 1',
        [forms],
      );
      return rows[0] ? { tenantId: rows[0].tenant_id, maDn: rows[0].ma_dn } : null;
    });
    if (this.byDid.size > 50_000) this.byDid.clear();
    this.byDid.set(key, found);
    return found;
  }

  /** The tenant of an extension's SIP domain (<ma_dn>.tongdai.local). */
  async ofDomain(domain: string): Promise<CallTenant | null> {
    const key = domain.toLowerCase();
    if (this.byDomain.has(key)) return this.byDomain.get(key)!;
    const maDn = tenantOfSipDomain(key);
    if (!maDn) return null;
    const found = await this.db.withSystem(async (tx) => {
      const { rows } = await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn]);
      return rows[0] ? { tenantId: rows[0].id, maDn } : null;
    });
    // Tenants are not renamed; unknown domains are not remembered (a new tenant may appear).
    if (found) this.byDomain.set(key, found);
    return found;
  }
}
