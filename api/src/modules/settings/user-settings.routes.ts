import type { FastifyInstance } from 'fastify';
import {
  ActivityStatusSchema, CHANGE_PASSWORD_MSG, ChangePasswordSchema, PERM, UserInfoSchema,
  type ActivityStatus, type ChangePasswordInput, type UserInfoInput,
} from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { hashPassword, verifyPassword } from '../../security/password';
import * as repo from './user-settings.repository';

function found<T>(value: T | null): T {
  if (!value) throw new AppError('SESSION_EXPIRED');
  return value;
}

/** Tenant surface: the logged-in user's own profile, password and activity status (login only). */
export async function userSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { db, loginLimiter } = app.deps;
  const schema = { tags: ['tenant: user settings'], security: [{ bearer: [] }] };
  const me = guarded(PERM.general);

  app.get('/user-info-login', { preHandler: me, schema }, async (request) => {
    const { tenantId, userId } = authOf(request);
    return { data: found(await db.withTenant(tenantId, (tx) => repo.getUserInfo(tx, userId))) };
  });

  app.put('/update-user-info-login', { preHandler: [...me, validate({ body: UserInfoSchema })], schema }, async (request) => {
    const { tenantId, userId } = authOf(request);
    return { data: found(await db.withTenant(tenantId, (tx) => repo.updateUserInfo(tx, userId, request.body as UserInfoInput))) };
  });

  // Limited like the logins: a stolen session must not become a password-guessing oracle.
  app.put('/change-password', { onRequest: loginLimiter, preHandler: [...me, validate({ body: ChangePasswordSchema })], schema }, async (request, reply) => {
    const { tenantId, userId, sessionId } = authOf(request);
    const body = request.body as ChangePasswordInput;
    const current = found(await db.withTenant(tenantId, (tx) => repo.passwordHashOf(tx, userId)));
    if (!(await verifyPassword(current, body.current_password))) {
      throw new AppError('VALIDATION_FAILED', [{ field: 'current_password', message: CHANGE_PASSWORD_MSG.wrongCurrent }]);
    }
    const hash = await hashPassword(body.password);
    await db.withTenant(tenantId, (tx) => repo.setPassword(tx, userId, hash, sessionId));
    app.deps.hub.endSessions(tenantId, { userId, exceptSessionId: sessionId });
    return reply.status(204).send();
  });

  app.put('/update-activity-status', { preHandler: [...me, validate({ body: ActivityStatusSchema })], schema }, async (request) => {
    const { tenantId, userId } = authOf(request);
    const { status } = request.body as { status: ActivityStatus };
    const extension = await db.withTenant(tenantId, (tx) => repo.setActivityStatus(tx, userId, status));
    // The wall (issue 14): the tenant's watchers and the manager of the extension's department.
    app.deps.hub.publish(tenantId, { kind: 'tongdai.monitor', version: 1, at: Date.now(), type: 'activity', extension, userId, status_activity: status }, { extensions: extension ? [extension] : [] });
    return { data: { status_activity: status } };
  });
}
