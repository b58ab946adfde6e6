import Fastify, { type FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { registerErrorHandling } from '../../http/error-handler';
import { callTenantLookup, registerCallRouting, type CallRoutingOptions } from './call-routing';
import { requireInternalSecret } from './internal-auth';
import { registerBackupRoute } from './pglite-backup-route';
import { PROCESS_STATS_PATH, processStats } from './process-stats';
import { sipHa1 } from './sip-credentials';

/**
 * A second listener for Kamailio and the media workers, bound to 127.0.0.1:INTERNAL_PORT by
 * main.ts (a container network with INTERNAL_HOST); never registered on the public server (a
 * test checks the public port answers 404). Every route needs the shared secret (`secret`,
 * default INTERNAL_SECRET): reaching the port is not enough (ADR 0019). The one exception takes a
 * secret of its own instead: the PGlite snapshot for `npm run backup` (`backupSecret`, ADR 0060).
 */
export function buildInternalServer(
  db: Db,
  opts: { logger?: boolean | { level: string }; calls?: CallRoutingOptions; secret?: string; backupSecret?: string } = {},
): FastifyInstance {
  const app = Fastify({ logger: opts.logger ?? false });
  const secret = opts.secret ?? process.env.INTERNAL_SECRET ?? '';
  requireInternalSecret(app, secret);
  // The public surfaces' one error body here too: a plan Kamailio asks for while PostgreSQL is away is
  // 503 DATABASE_UNAVAILABLE (Kamailio refuses the call with 503 + Retry-After and records it as
  // unplanned, ADR 0046), not Fastify's 500 carrying the server's own message (issue 41).
  registerErrorHandling(app);
  app.get('/internal/sip/health', async () => ({ status: 'ok' }));
  // This process's memory and event-loop delay (the soak bench, issue 42); `?reset=1` starts a new window.
  app.get<{ Querystring: { reset?: string } }>(PROCESS_STATS_PATH, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(processStats({ reset: request.query.reset === '1' })));
  const tenants = callTenantLookup(db);
  app.get<{ Querystring: { user?: string; domain?: string } }>('/internal/sip/credentials', async (request, reply) => {
    const { user, domain } = request.query;
    const ha1 = typeof user === 'string' && typeof domain === 'string' ? await sipHa1(db, user, domain, tenants) : null;
    // http_client keeps the first body line: one line, no JSON, nothing else to parse in Kamailio.
    if (!ha1) return reply.status(404).type('text/plain').send('');
    return reply.type('text/plain').header('cache-control', 'no-store').send(ha1);
  });
  registerCallRouting(app, db, { ...opts.calls, internalSecret: secret });
  // npm run backup on PGlite (docs/operations/backups.md): a snapshot, with a secret of its own too.
  if (opts.backupSecret) registerBackupRoute(app, db, opts.backupSecret);
  return app;
}
