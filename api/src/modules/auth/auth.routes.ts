import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { LoginSchema, PERM, type LoginInput } from '@tongdai/contracts';
import { authOf, guarded, publicRoute } from '../../http/guards';
import { parseOrThrow, validate } from '../../http/validate';
import { withRetryAfter } from './throttle';

/** Identity surface: POST /login/tenant with {ma_dn, username, password}. */
export async function identityAuthRoutes(app: FastifyInstance): Promise<void> {
  const { auth, loginLimiter } = app.deps;
  app.post(
    '/login/tenant',
    { onRequest: loginLimiter, preHandler: [publicRoute, validate({ body: LoginSchema })], schema: { tags: ['identity'] } },
    async (request, reply) => ({ data: await withRetryAfter(reply, () => auth.login(request.body as LoginInput, request.ip)) }),
  );
}

const TenantLoginBody = v.omit(LoginSchema, ['ma_dn']);

/** Tenant surface: POST /login (ma_dn from the path), GET /me, POST /logout. */
export async function tenantAuthRoutes(app: FastifyInstance): Promise<void> {
  const { auth, loginLimiter } = app.deps;
  app.post('/login', { onRequest: loginLimiter, preHandler: publicRoute, schema: { tags: ['tenant'] } }, async (request, reply) => {
    const body = parseOrThrow(TenantLoginBody, request.body);
    const { ma_dn } = request.params as { ma_dn: string };
    return { data: await withRetryAfter(reply, () => auth.login(parseOrThrow(LoginSchema, { ...body, ma_dn }), request.ip)) };
  });
  const schema = { tags: ['tenant'], security: [{ bearer: [] }] };
  app.get('/me', { preHandler: guarded(PERM.general), schema }, async (request) => ({ data: await auth.me(authOf(request)) }));
  app.post('/logout', { preHandler: guarded(PERM.general), schema }, async (request, reply) => {
    const me = authOf(request);
    await auth.logout(me);
    app.deps.hub.endSessions(me.tenantId, { sessionId: me.sessionId });
    return reply.status(204).send();
  });
}
