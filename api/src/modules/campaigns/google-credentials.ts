import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CAMPAIGN_MSG, GOOGLE_CREDENTIALS_API, GoogleCredentialsSchema, PERM, type GoogleCredentialsInput, type GoogleCredentialsView, MSG } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError } from '../../http/errors';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { openGoogleKey, sealGoogleKey } from '../subscribers/subscribers.service';
import { GoogleSheetError, readGoogleSheet, serviceAccountOf, type ServiceAccount } from './google-sheet';

/**
 * The tenant's Google service account (issue 33, ADR 0050): its key file sealed like SIP passwords
 * (purpose "google", the tenant id as additional data), its e-mail in clear for the settings screen.
 * The key never leaves the API; the Sheets endpoint is GOOGLE_SHEETS_ENDPOINT when set (a proxy, or
 * the tests' stand-in), Google itself otherwise.
 */
export const googleSheetsEndpoint = (): string | undefined => process.env.GOOGLE_SHEETS_ENDPOINT || undefined;

const refused = (message: string, field = 'sheet_id') => new AppError('GOOGLE_SHEET_REFUSED', [{ field, message }]);

export function createGoogleCredentialsService(db: Db) {
  return {
    async view(tenantId: number): Promise<GoogleCredentialsView> {
      const { rows } = await db.withTenant(tenantId, (tx) =>
        tx.query<{ client_email: string; updated_at: Date }>('select client_email, updated_at from google_credentials'),
      );
      return { client_email: rows[0]?.client_email ?? null, updated_at: rows[0]?.updated_at.toISOString() ?? null };
    },

    /** A new key file replaces the stored one; "" keeps it ("để trống để giữ"), or is required when there is none. */
    async save(tenantId: number, input: GoogleCredentialsInput): Promise<GoogleCredentialsView> {
      if (input.key_json === '') {
        const current = await this.view(tenantId);
        if (!current.client_email) throw new AppError('VALIDATION_FAILED', [{ field: 'key_json', message: MSG.required }]);
        return current;
      }
      let account: ServiceAccount;
      try {
        account = serviceAccountOf(input.key_json);
      } catch (e) {
        throw new AppError('VALIDATION_FAILED', [{ field: 'key_json', message: (e as Error).message }]);
      }
      if (account.client_email.length > 320) throw new AppError('VALIDATION_FAILED', [{ field: 'key_json', message: 'Giá trị không hợp lệ' }]);
      const sealed = sealGoogleKey(tenantId, JSON.stringify(account));
      await db.withTenant(tenantId, (tx) =>
        tx.query(
          `insert into google_credentials (tenant_id, client_email, key_sealed) values ($1, $2, $3)
           on conflict (tenant_id) do update set client_email = excluded.client_email, key_sealed = excluded.key_sealed, updated_at = now()`,
          [tenantId, account.client_email, sealed],
        ),
      );
      return this.view(tenantId);
    },

    /** The SPEC's user_id names a user of the tenant (RLS keeps the lookup inside it). */
    async isUser(tenantId: number, userId: number): Promise<boolean> {
      const { rows } = await db.withTenant(tenantId, (tx) => tx.query('select 1 from users where id = $1', [userId]));
      return rows.length > 0;
    },

    /** The tab's rows through the tenant's account; Google's refusals as Vietnamese 422s, its silence as 502. */
    async readSheet(tenantId: number, sheetId: string, sheetName: string): Promise<string[][]> {
      const { rows } = await db.withTenant(tenantId, (tx) => tx.query<{ key_sealed: string }>('select key_sealed from google_credentials'));
      if (!rows[0]) throw refused(CAMPAIGN_MSG.noGoogleAccount, 'google');
      const opened = openGoogleKey(tenantId, rows[0].key_sealed);
      if (!opened) throw refused(CAMPAIGN_MSG.noGoogleAccount, 'google');
      try {
        return await readGoogleSheet(JSON.parse(opened) as ServiceAccount, sheetId, sheetName, { endpoint: googleSheetsEndpoint() });
      } catch (e) {
        if (!(e instanceof GoogleSheetError)) throw e;
        if (e.status === 502) throw new AppError('GOOGLE_UNAVAILABLE', [{ field: 'sheet_id', message: e.message }]);
        throw refused(e.message);
      }
    },
  };
}

const tid = (request: FastifyRequest) => authOf(request).tenantId;

/** Tenant surface: /t/:ma_dn/google-credentials, read and set by who edits campaigns (it feeds their contact lists). */
export async function googleCredentialsRoutes(app: FastifyInstance): Promise<void> {
  const svc = createGoogleCredentialsService(app.deps.db);
  const schema = { tags: ['tenant: google sheet source'], security: [{ bearer: [] }] };
  const edit = guarded(PERM.campaign.edit);
  const path = `/${GOOGLE_CREDENTIALS_API}`;
  app.get(path, { preHandler: edit, schema }, async (request) => ({ data: await svc.view(tid(request)) }));
  app.put(path, { preHandler: [...edit, validate({ body: GoogleCredentialsSchema })], schema }, async (request) => ({
    data: await svc.save(tid(request), request.body as GoogleCredentialsInput),
  }));
}
