import Fastify, { type FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { registerCallRouting, type CallRoutingOptions } from './call-routing';
import { sipPassword } from './sip-credentials';

/**
 * A second listener for Kamailio only, bound to 127.0.0.1:INTERNAL_PORT by main.ts: it answers
 * plaintext SIP passwords, so it is never registered on the public server (a test checks the
 * public port answers 404). No bearer: reaching the loopback port is the authorisation.
 */
export function buildInternalServer(db: Db, opts: { logger?: boolean | { level: string }; calls?: CallRoutingOptions } = {}): FastifyInstance {
  const app = Fastify({ logger: opts.logger ?? false });
  app.get('/internal/sip/health', async () => ({ status: 'ok' }));
  app.get<{ Querystring: { user?: string; domain?: string } }>('/internal/sip/credentials', async (request, reply) => {
    const { user, domain } = request.query;
    const password = typeof user === 'string' && typeof domain === 'string' ? await sipPassword(db, user, domain) : null;
    // http_client keeps the first body line: one line, no JSON, nothing else to parse in Kamailio.
    if (!password) return reply.status(404).type('text/plain').send('');
    return reply.type('text/plain').header('cache-control', 'no-store').send(password);
  });
  registerCallRouting(app, db, opts.calls);
  return app;
}
