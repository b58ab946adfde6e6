import { createHash, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, ERROR_MESSAGES } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import { canSnapshot } from '../../db/backup';
import type { Db } from '../../db/db';
import { checkInternalSecret, OWN_SECRET } from './internal-auth';

/**
 * `npm run backup` on the embedded PGlite (docs/operations/backups.md, ADR 0060): the running API
 * hands out a consistent snapshot of its data folder (db/backup.ts), since no other process may read
 * that folder while PGlite writes it. Only on the internal listener (127.0.0.1, internal-server.ts),
 * and with a secret of its own, not the listener's: Kamailio and the media workers hold
 * INTERNAL_SECRET, and a whole database (password hashes, sealed SIP passwords, every tenant's
 * customers) is not theirs to take. BACKUP_SECRET is kept in the data folder (main.ts, mode 0600):
 * whoever runs `npm start` can read it. On PostgreSQL there is no such route: pg_dump is the backup.
 */
export const BACKUP_PATH = '/internal/backup/pglite';
export const BACKUP_HEADER = 'x-tongdai-backup';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function registerBackupRoute(app: FastifyInstance, db: Db, secret: string): void {
  if (!canSnapshot(db)) return;
  const expected = digest(checkInternalSecret(secret));
  // Its own secret only: the listener's (INTERNAL_SECRET) neither opens it nor is needed (npm start
  // makes that one afresh each run and gives it to Kamailio and the media worker alone).
  app.get(BACKUP_PATH, { config: OWN_SECRET }, async (request, reply) => {
    const presented = request.headers[BACKUP_HEADER];
    if (typeof presented !== 'string' || !timingSafeEqual(digest(presented), expected)) {
      return reply.status(401).send({ status: 401, code: ERROR_CODES.unauthorized, message: ERROR_MESSAGES.UNAUTHORIZED });
    }
    const started = Date.now();
    const tarball = await db.snapshot();
    const stamp = new Date(started).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    request.log.warn({ bytes: tarball.length, ms: Date.now() - started }, 'PGlite snapshot taken (npm run backup)');
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="tongdai-pglite-${stamp}.tar.gz"`)
      .header('cache-control', 'no-store')
      .send(tarball);
  });
}
