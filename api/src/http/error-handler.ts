import type { FastifyInstance } from 'fastify';
import { AppError, toErrorBody } from './errors';

/** One error body for every surface, including unknown routes. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const body = toErrorBody(err);
    if (body.status >= 500) request.log.error({ err }, 'unhandled error');
    void reply.status(body.status).send(body);
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.status(404).send(new AppError('NOT_FOUND').toBody());
  });
}
