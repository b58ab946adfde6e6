import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { tenantAuthRoutes, identityAuthRoutes } from './modules/auth/auth.routes';
import { customersRoutes } from './modules/customers/customers.routes';
import { orgRoutes } from './modules/org/org.routes';
import { pbxRoutes } from './modules/pbx/pbx.routes';
import { tenantNotificationsRoutes } from './modules/pbx/notifications.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { siteRoutes } from './modules/settings/site.routes';
import { userSettingsRoutes } from './modules/settings/user-settings.routes';
import { signupRoutes } from './modules/signup/signup.routes';
import { subscribersRoutes } from './modules/subscribers/subscribers.routes';
import { voicemailRoutes } from './modules/voicemail/voicemail.routes';
import { cpRoutes } from './modules/tenants/cp.routes';
import { telecomRoutes } from './modules/telecom/telecom.routes';
import { switchboardsRoutes } from './modules/telecom/switchboards.routes';
import { eventsRoutes } from './modules/realtime/events.routes';
import { callHistoryRoutes } from './modules/reports/call-history.routes';
import { summaryRoutes } from './modules/reports/summary.routes';
import { freshnessRoutes } from './modules/reports/freshness.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { kpisRoutes } from './modules/kpis/kpis.routes';
import { monitorRoutes } from './modules/monitor/monitor.routes';
import { surveysRoutes } from './modules/surveys/surveys.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { dncRoutes } from './modules/campaigns/dnc.routes';
import { googleCredentialsRoutes } from './modules/campaigns/google-credentials';
import { campaignQuestionUsage } from './modules/campaigns/campaigns.service';
import { voiceOtpApiRoutes, voiceOtpTenantRoutes } from './modules/voice-otp/voice-otp.routes';
import { crmCallsApiRoutes } from './modules/crm-calls/crm-calls.routes';
import { integrationsRoutes } from './modules/integrations/integrations.routes';
import { createVoiceOtpService } from './modules/voice-otp/voice-otp.service';
import { auditRoutes } from './modules/audit/audit.routes';
import { CRM_PUBLIC_API, OTP_PUBLIC_API } from '@tongdai/contracts';
import { publicRoute } from './http/guards';

const health = (surface: string): FastifyPluginAsync => async (app) => {
  app.get('/health', { preHandler: publicRoute, schema: { tags: [surface] } }, async () => ({ status: 'ok' }));
};

/** The five API surfaces of ARCHITECTURE.md, each an encapsulated plugin under its prefix. */
export async function registerSurfaces(app: FastifyInstance): Promise<void> {
  const voiceOtp = createVoiceOtpService(app.deps.db, undefined, app.deps.switchboardHosts);
  await app.register(
    async (cp) => {
      await cp.register(health('control panel'));
      await cp.register(cpRoutes);
    },
    { prefix: '/cp' },
  );
  await app.register(
    async (identity) => {
      await identity.register(health('identity'));
      await identity.register(identityAuthRoutes);
      await identity.register(signupRoutes);
    },
    { prefix: '/identity' },
  );
  await app.register(
    async (pbx) => {
      await pbx.register(health('pbx'));
      await pbx.register(pbxRoutes);
    },
    { prefix: '/pbx' },
  );
  await app.register(
    async (telecom) => {
      await telecom.register(health('telecom'));
      await telecom.register(telecomRoutes);
    },
    { prefix: '/telecom' },
  );
  await app.register(
    async (tenant) => {
      await tenant.register(tenantAuthRoutes);
      await tenant.register(rolesRoutes);
      await tenant.register(accountsRoutes);
      await tenant.register(settingsRoutes);
      await tenant.register(siteRoutes);
      await tenant.register(userSettingsRoutes);
      await tenant.register(customersRoutes);
      await tenant.register(orgRoutes);
      await tenant.register(subscribersRoutes);
      await tenant.register(voicemailRoutes);
      await tenant.register(tenantNotificationsRoutes);
      await tenant.register(eventsRoutes);
      await tenant.register(callHistoryRoutes);
      await tenant.register(summaryRoutes);
      await tenant.register(freshnessRoutes);
      await tenant.register(activityRoutes);
      await tenant.register(kpisRoutes);
      await tenant.register(monitorRoutes);
      await tenant.register(switchboardsRoutes);
      // A question a running or paused campaign asks is not deleted (ADR 0050).
      await tenant.register(surveysRoutes(campaignQuestionUsage));
      await tenant.register(campaignsRoutes('survey'));
      await tenant.register(campaignsRoutes('marketing'));
      await tenant.register(dncRoutes);
      await tenant.register(googleCredentialsRoutes);
      await tenant.register(voiceOtpTenantRoutes(voiceOtp));
      await tenant.register(integrationsRoutes());
      await tenant.register(auditRoutes);
    },
    { prefix: '/t/:ma_dn' },
  );
  // The applications' voice-OTP surface (issue 35): an API key, not a user's session, opens it.
  await app.register(voiceOtpApiRoutes(voiceOtp), { prefix: OTP_PUBLIC_API.prefix });
  // The CRMs' click-to-call (issue 39, ADR 0066): the same tenant API keys, with the scope calls.originate.
  await app.register(crmCallsApiRoutes(), { prefix: CRM_PUBLIC_API.prefix });
}
