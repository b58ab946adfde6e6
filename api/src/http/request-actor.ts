import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runInActorScope, type Actor } from '../db/actor';
import './types';

const resources = new WeakMap<FastifyRequest, AsyncResource>();
const answered = new WeakSet<FastifyRequest>();
const MAX_USER_AGENT = 500;

/**
 * Every request runs in its own actor scope (db/actor.ts): a transaction it opens names the user its
 * session token proved (request.auth, set by requireAuth) as `app.actor`, for the audit log. Anything
 * the request leaves running once it is answered (a timer, a wake-up) acts for nobody.
 *
 * Fastify runs onRequest in the request's async context, but reads the body and runs the route's
 * hooks and handler from the socket's events: the scope is carried across with an AsyncResource, as
 * @fastify/request-context does.
 */
export function registerRequestActor(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const actor = (): Actor | null =>
      request.auth && !answered.has(request)
        ? {
            user_id: request.auth.userId,
            tenant_id: request.auth.tenantId,
            ip: request.ip,
            user_agent: String(request.headers['user-agent'] ?? '').slice(0, MAX_USER_AGENT),
            request_id: String(request.id),
          }
        : null;
    runInActorScope({ actor }, () => {
      const resource = new AsyncResource('tongdai-request');
      resources.set(request, resource);
      resource.runInAsyncScope(done);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = resources.get(request);
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    answered.add(request);
    done();
  });
}
