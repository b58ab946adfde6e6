import type { FastifyInstance } from 'fastify';
import { SignupSchema, type SignupInput } from '@tongdai/contracts';
import { publicRoute } from '../../http/guards';
import { validate } from '../../http/validate';
import { createSignupService } from './signup.service';

/** Identity surface: POST /signup (public), limited per IP with the same counter as the logins. */
export async function signupRoutes(app: FastifyInstance): Promise<void> {
  const { db, loginLimiter } = app.deps;
  const service = createSignupService(db);
  app.post(
    '/signup',
    { onRequest: loginLimiter, preHandler: [publicRoute, validate({ body: SignupSchema })], schema: { tags: ['identity'] } },
    async (request, reply) => reply.status(201).send({ data: await service.signup(request.body as SignupInput) }),
  );
}
