import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { PERM, SITE_LOGO_MAX_BYTES, SITE_MSG, SiteNameSchema, type FieldError } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError } from '../../http/errors';
import { authOf, guarded, publicRoute } from '../../http/guards';
import { checkFormFields } from '../../http/input-guard';
import { parseOrThrow } from '../../http/validate';
import { findTenantByMaDn } from '../tenants/tenants.service';
import { LOGO_HEADERS, sniffLogoType } from './site-logo';
import { getSiteInfo, getSiteLogo, saveSiteInfo, type LogoChange } from './site.repository';

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', [{ field, message } satisfies FieldError]);

interface SiteForm {
  fields: Record<string, string>;
  /** undefined: no file sent (keep the logo). */
  logo?: LogoChange;
}

/** Reads the multipart body; the file part is held in memory, capped at 1 MB by the parser. */
async function readForm(request: FastifyRequest): Promise<SiteForm> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, string> };
  const form: SiteForm = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') form.fields[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'logo') await part.toBuffer();
      else {
        const bytes = await part.toBuffer();
        if (!bytes.length) continue;
        const mime = sniffLogoType(bytes);
        if (!mime) throw invalid('logo', SITE_MSG.logoType);
        form.logo = { bytes, mime };
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('logo', SITE_MSG.logoTooLarge);
    throw invalid('logo', SITE_MSG.logoType);
  }
  checkFormFields(form.fields);
  return form;
}

async function publicLogo(db: Db, maDn: string): Promise<LogoChange | null> {
  // The logo is shown before any token exists in some places (img tags carry no bearer).
  const tenant = await findTenantByMaDn(db, maDn);
  return tenant ? db.withTenant(tenant.id, getSiteLogo) : null;
}

/** Tenant surface: GET/POST /change-info-site (name + logo), public GET /site-logo. */
export async function siteRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  // Registered here, so only this plugin's routes accept multipart bodies.
  await app.register(multipart, { limits: { fileSize: SITE_LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const schema = { tags: ['tenant: settings'], security: [{ bearer: [] }] };

  // Every user sees the site name and logo in the top bar: reading needs only a login.
  app.get('/change-info-site', { preHandler: guarded(PERM.general), schema }, async (request) => ({
    data: await db.withTenant(authOf(request).tenantId, getSiteInfo),
  }));

  app.post('/change-info-site', { preHandler: guarded(PERM.setting.edit), schema }, async (request) => {
    const { tenantId } = authOf(request);
    const form = await readForm(request);
    const { name } = parseOrThrow(SiteNameSchema, { name: form.fields.name });
    const logo = form.logo ?? (form.fields.remove_logo === '1' ? null : undefined);
    return { data: await db.withTenant(tenantId, (tx) => saveSiteInfo(tx, tenantId, name, logo)) };
  });

  app.get('/site-logo', { preHandler: publicRoute, schema: { tags: ['tenant: settings'] } }, async (request, reply) => {
    const logo = await publicLogo(db, (request.params as { ma_dn: string }).ma_dn);
    if (!logo) throw new AppError('NOT_FOUND');
    return reply.headers({ ...LOGO_HEADERS, 'content-type': logo.mime }).send(logo.bytes);
  });
}
