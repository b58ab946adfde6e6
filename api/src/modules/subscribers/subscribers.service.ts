import {
  SUBSCRIBER_MSG,
  sipDomain,
  stringeeUserId,
  type CallHistory,
  type CallHistoryInput,
  type FieldError,
  type Paged,
  type SipAccount,
  type Subscriber,
  type SubscriberCreated,
  type SubscriberInput,
  type SubscriberListQuery,
  type VoiceSubscriber,
  type VoiceSubscriberQuery,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import type { RegistrationStore } from '../realtime/registration-store';
import { AppError, ConflictError, isUniqueViolation, violationText } from '../../http/errors';
import { getSystemSetting } from '../settings/settings.service';
import { generateSipPassword } from './sip-password';
import * as repo from './subscribers.repository';
import { loadPbxConfig, refuseIfUsed } from '../pbx/pbx.service';
import { sipCredentialsChanged } from '../../security/sip-credentials-changed';

/** Another tenant's subscriber is invisible under RLS, so it is simply "not found". */
function found<T>(value: T | null | false): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

/** Extension and account must be free in the tenant, and the account must be one of its own. */
async function checkInput(tx: Queryable, input: SubscriberInput, exceptId = 0): Promise<void> {
  if (input.user_id !== null && !(await repo.userExists(tx, input.user_id))) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'user_id', message: SUBSCRIBER_MSG.userNotFound }]);
  }
  if (input.voicemail_greeting_id && !(await repo.greetingExists(tx, input.voicemail_greeting_id))) {
    throw new AppError('VALIDATION_FAILED', [{ field: 'voicemail_greeting_id', message: SUBSCRIBER_MSG.greetingNotFound }]);
  }
  const clash = await repo.clashes(tx, input, exceptId);
  const details: FieldError[] = [];
  if (clash.extension) details.push({ field: 'extension', message: SUBSCRIBER_MSG.extensionTaken });
  if (clash.user) details.push({ field: 'user_id', message: SUBSCRIBER_MSG.userTaken });
  if (details.length) throw new ConflictError(details[0].message, details);
}

/** Two requests racing past checkInput meet the unique constraints instead: same 409. */
function uniqueViolation(e: unknown): never {
  if (isUniqueViolation(e)) {
    const user = violationText(e).includes('user_id');
    const message = user ? SUBSCRIBER_MSG.userTaken : SUBSCRIBER_MSG.extensionTaken;
    throw new ConflictError(message, [{ field: user ? 'user_id' : 'extension', message }]);
  }
  throw e;
}

export interface SipAccountOptions {
  /** The WebSocket URL browsers register on (env SIP_WS_URL). */
  wsUrl: string;
  /** The tenant's telecom key (provider 2, SPEC §3 shop_key). */
  shopKey: (maDn: string) => string;
  /** A Stringee SDK access token for a user id (provider 3). */
  stringeeToken: (userId: string) => string;
  /** Who is registered now (the one registration store, ADR 0038): the list shows it. */
  registrations: Pick<RegistrationStore, 'registered'>;
}

/** Renumbering or deleting an extension a ring group, queue or destination still names: 409 naming that object. */
async function refuseIfExtensionUsed(tx: Queryable, tenantId: number, extension: string): Promise<void> {
  refuseIfUsed(await loadPbxConfig(tx, tenantId, ''), [`ext:${extension}`]);
}

export function createSubscribersService(db: Db, sip: SipAccountOptions) {
  return {
    async list(tenantId: number, q: SubscriberListQuery): Promise<Paged<Subscriber>> {
      const [{ rows, total }, online] = await Promise.all([db.withTenant(tenantId, (tx) => repo.listSubscribers(tx, q)), sip.registrations.registered(tenantId)]);
      return { data: rows.map((r) => ({ ...r, registered: online.has(r.extension) })), meta: { page: q.page, per_page: q.per_page, total } };
    },
    /**
     * The telecom side's view (/voices/subscribers): each extension in the tenant's SIP domain with
     * whether a phone is registered on it now (`registered`: the live state's extensions).
     */
    async voiceList(tenantId: number, maDn: string, q: VoiceSubscriberQuery, registered: ReadonlySet<string>, userAgents: ReadonlyMap<string, string> = new Map()): Promise<Paged<VoiceSubscriber>> {
      const only = q.registration ? { registered: q.registration === 'registered', extensions: [...registered] } : undefined;
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listSubscribers(tx, q, only));
      const domain = sipDomain(maDn);
      return {
        data: rows.map((s) => ({ ...s, sip_domain: domain, registered: registered.has(s.extension), user_agent: (registered.has(s.extension) && userAgents.get(s.extension)) || null })),
        meta: { page: q.page, per_page: q.per_page, total },
      };
    },
    linked: (tenantId: number) => db.withTenant(tenantId, repo.listLinkedSubscribers),
    get: async (tenantId: number, id: number) => found(await db.withTenant(tenantId, (tx) => repo.getSubscriber(tx, id))),
    create: (tenantId: number, input: SubscriberInput): Promise<SubscriberCreated> =>
      db
        .withTenant(tenantId, async (tx) => {
          await checkInput(tx, input);
          const password = generateSipPassword();
          const id = await repo.insertSubscriber(tx, tenantId, input, password);
          return { ...(await repo.getSubscriber(tx, id))!, password };
        })
        .catch(uniqueViolation),
    update: async (tenantId: number, id: number, input: SubscriberInput) =>
      found(
        await db
          .withTenant(tenantId, async (tx) => {
            const before = await repo.getSubscriber(tx, id);
            if (!before) return null;
            await checkInput(tx, input, id);
            if (before.extension !== input.extension) await refuseIfExtensionUsed(tx, tenantId, before.extension);
            await repo.updateSubscriber(tx, id, input);
            return repo.getSubscriber(tx, id);
          })
          .then((saved) => {
            // Renumbered or linked to another account: Kamailio's cached credentials go.
            if (saved) sipCredentialsChanged(tenantId);
            return saved;
          })
          .catch(uniqueViolation),
      ),
    async resetPassword(tenantId: number, id: number): Promise<{ password: string }> {
      const password = generateSipPassword();
      found(await db.withTenant(tenantId, (tx) => repo.setPassword(tx, tenantId, id, password)));
      sipCredentialsChanged(tenantId);
      return { password };
    },
    async remove(tenantId: number, id: number): Promise<void> {
      found(
        await db.withTenant(tenantId, async (tx) => {
          const before = await repo.getSubscriber(tx, id);
          if (!before) return false;
          await refuseIfExtensionUsed(tx, tenantId, before.extension);
          return repo.deleteSubscriber(tx, id);
        }),
      );
      sipCredentialsChanged(tenantId);
    },
    /** The softphone's credentials: the user's own extension in the tenant's SIP domain. */
    sipAccount: async (tenantId: number, maDn: string, userId: number): Promise<SipAccount> =>
      found(
        await db.withTenant(tenantId, async (tx) => {
          const sub = await repo.subscriberOfUser(tx, tenantId, userId);
          if (!sub) return null;
          const provider = (await getSystemSetting(tx)).voice_over_internet_protocol;
          const domain = sipDomain(maDn);
          const account: SipAccount = {
            provider,
            username_telecom: sub.extension,
            domain_telecom: domain,
            password_telecom: sub.sip_password,
            ws_url: sip.wsUrl,
            display_name: sub.display_name,
          };
          if (provider === 2) {
            return { ...account, extentions_number: sub.extension, tenant_domain: domain, extension_password: sub.sip_password, shop_key: sip.shopKey(maDn) };
          }
          if (provider === 3) return { ...account, access_token: sip.stringeeToken(stringeeUserId(maDn, sub.extension)) };
          return account;
        }),
      ),
    logCall: (tenantId: number, userId: number, input: CallHistoryInput): Promise<CallHistory> =>
      db.withTenant(tenantId, (tx) => repo.insertCall(tx, tenantId, userId, input)),
  };
}

/** For other modules (the telecom surface): the tenant's extensions as a directory. */
export { listDirectory } from './subscribers.repository';

/**
 * SQL: the extension of the account whose id is `userId` (an SQL expression), or null. One
 * extension identity (ADR 0015): an account's extension is the subscriber linked to it.
 */
export const userExtensionSql = (userId: string): string => `(select s.extension from subscribers s where s.user_id = ${userId})`;

/** For the SIP plane's credentials (Kamailio's digest): a sealed SIP password opened, its HA1 (ADR 0019). */
export { digestHa1, openGoogleKey, openSipPassword, openSwitchboardPassword, openWebhookSecret, sealGoogleKey, sealSwitchboardPassword, sealWebhookSecret } from './sip-password-box';
