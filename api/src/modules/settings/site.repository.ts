import type { SiteInfo } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

/** Relative to the tenant API base; the version busts caches when the logo changes. */
const logoUrl = (updatedAt: Date | string) => `site-logo?v=${new Date(updatedAt).getTime()}`;

/** Inside withTenant. No row yet: the tenant's own name and no logo. */
export async function getSiteInfo(tx: Queryable): Promise<SiteInfo> {
  const { rows } = await tx.query<{ name: string; has_logo: boolean; updated_at: Date | string }>(
    `select coalesce(s.name, t.name) as name, s.logo is not null as has_logo, s.updated_at
       from tenants t left join site_infos s on s.tenant_id = t.id`,
  );
  const row = rows[0];
  return { name: row?.name ?? '', logo_url: row?.has_logo ? logoUrl(row.updated_at) : null };
}

export interface LogoChange {
  bytes: Buffer;
  mime: string;
}

/** `logo` undefined keeps the current logo, null removes it. */
export async function saveSiteInfo(tx: Queryable, tenantId: number, name: string, logo: LogoChange | null | undefined): Promise<SiteInfo> {
  const keep = logo === undefined;
  await tx.query(
    `insert into site_infos (tenant_id, name, logo, logo_mime, updated_at) values ($1, $2, $3, $4, now())
     on conflict (tenant_id) do update set name = excluded.name, updated_at = now(),
       logo = case when $5 then site_infos.logo else excluded.logo end,
       logo_mime = case when $5 then site_infos.logo_mime else excluded.logo_mime end`,
    [tenantId, name, logo?.bytes ?? null, logo?.mime ?? null, keep],
  );
  return getSiteInfo(tx);
}

export async function getSiteLogo(tx: Queryable): Promise<LogoChange | null> {
  const { rows } = await tx.query<{ logo: Buffer | Uint8Array; logo_mime: string }>('select logo, logo_mime from site_infos where logo is not null');
  return rows[0] ? { bytes: Buffer.from(rows[0].logo), mime: rows[0].logo_mime } : null;
}
