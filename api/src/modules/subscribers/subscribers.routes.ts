import { invalidateRoutingOnWrite } from '../pbx/pbx.service';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CallHistoryInputSchema,
  FEATURES,
  PERM,
  RecentCallsQuerySchema,
  SubscriberInputSchema,
  SubscriberListQuerySchema,
  type CallHistoryInput,
  type RecentCallsQuery,
  type SubscriberInput,
  type SubscriberListQuery,
  VoiceSubscriberQuerySchema,
  type VoiceSubscriberQuery,
} from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { createRecentCallsService } from '../reports/recent-calls.service';
import { createShopKeys } from '../telecom/telecom.service';
import { createStringeeTokens, stringeeKeyFromEnv } from './stringee-token';
import { createSubscribersService } from './subscribers.service';

const schema = { tags: ['tenant: subscribers'], security: [{ bearer: [] }] };
const tid = (request: FastifyRequest) => authOf(request).tenantId;

export const DEFAULT_SIP_WS_URL = 'ws://127.0.0.1:8088';

/**
 * Tenant surface: subscriber (extension) CRUD behind the subscriber.* permissions; the caller's
 * own SIP account and call log need only a session (every agent's softphone uses them).
 */
export async function subscribersRoutes(app: FastifyInstance): Promise<void> {
  invalidateRoutingOnWrite(app);
  // The admin screens belong to the purchased PBX; an agent's own softphone account does not.
  const gate = (perm: string) => guarded(perm, FEATURES.pbx);
  const shopKeys = createShopKeys(app.deps.deriveKey);
  const subscribers = createSubscribersService(app.deps.db, {
    wsUrl: process.env.SIP_WS_URL || DEFAULT_SIP_WS_URL,
    shopKey: shopKeys.issue,
    stringeeToken: createStringeeTokens(stringeeKeyFromEnv(process.env, app.deps.deriveKey)),
    registrations: app.deps.hub.live.registrations,
  });

  const recent = createRecentCallsService(app.deps.db);

  app.get('/subscribers', { preHandler: [...gate(PERM.subscriber.view), validate({ query: SubscriberListQuerySchema })], schema }, async (request) =>
    subscribers.list(tid(request), request.query as SubscriberListQuery),
  );
  // The telecom side's list (/voices/subscribers): the same rows with the SIP domain and live registration.
  app.get('/voice-subscribers', { preHandler: [...gate(PERM.subscriber.view), validate({ query: VoiceSubscriberQuerySchema })], schema }, async (request) => {
    const auth = authOf(request);
    const store = app.deps.hub.live.registrations;
    const [registered, userAgents] = await Promise.all([store.registered(auth.tenantId), store.userAgents(auth.tenantId)]);
    return subscribers.voiceList(auth.tenantId, auth.maDn, request.query as VoiceSubscriberQuery, registered, userAgents);
  });
  app.post('/subscribers', { preHandler: [...gate(PERM.subscriber.create), validate({ body: SubscriberInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await subscribers.create(tid(request), request.body as SubscriberInput) }),
  );
  app.get('/subscribers/:id', { preHandler: gate(PERM.subscriber.view), schema }, async (request) => ({
    data: await subscribers.get(tid(request), idOf(request.params)),
  }));
  app.put('/subscribers/:id', { preHandler: [...gate(PERM.subscriber.edit), validate({ body: SubscriberInputSchema })], schema }, async (request) => ({
    data: await subscribers.update(tid(request), idOf(request.params), request.body as SubscriberInput),
  }));
  app.delete('/subscribers/:id', { preHandler: gate(PERM.subscriber.delete), schema }, async (request, reply) => {
    await subscribers.remove(tid(request), idOf(request.params));
    return reply.status(204).send();
  });
  // A new password is the only way to see one again: the stored one is never listed.
  app.post('/subscribers/:id/reset-password', { preHandler: gate(PERM.subscriber.edit), schema }, async (request) => ({
    data: await subscribers.resetPassword(tid(request), idOf(request.params)),
  }));
  // Extensions with their owners, for transfer targets and pickers: no password, any logged-in user.
  app.get('/subscriber-has-user', { preHandler: guarded(), schema }, async (request) => ({ data: await subscribers.linked(tid(request)) }));

  app.get('/sip-account', { preHandler: guarded(), schema }, async (request) => {
    const auth = authOf(request);
    return { data: await subscribers.sipAccount(auth.tenantId, auth.maDn, auth.userId) };
  });
  app.post('/create-histories-call', { preHandler: [...guarded(), validate({ body: CallHistoryInputSchema })], schema }, async (request, reply) => {
    const auth = authOf(request);
    return reply.status(201).send({ data: await subscribers.logCall(auth.tenantId, auth.userId, request.body as CallHistoryInput) });
  });
  // The agent's own recent calls as the call records have them (the softphone's "Gần đây").
  app.get('/histories-call', { preHandler: [...guarded(), validate({ query: RecentCallsQuerySchema })], schema }, async (request) => {
    const auth = authOf(request);
    return recent.list(auth.tenantId, auth.userId, request.query as RecentCallsQuery);
  });
}
