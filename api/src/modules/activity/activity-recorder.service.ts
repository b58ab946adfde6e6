import type { ActivityStatus } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import * as repo from './activity.repository';

/** The place an account's activity is recorded from: auth (login/logout), settings (status), kamailio (registrations). */
export type ActivityRecorder = ReturnType<typeof createActivityRecorder>;

/**
 * Writes events, each in its own short transaction after the thing it records happened. A failed
 * write is logged, never turned into a failed login or a refused REGISTER: activity is a report.
 */
export function createActivityRecorder(db: Db, onError: (err: unknown) => void = (err) => console.error('activity event not recorded', err)) {
  const write = (tenantId: number, fn: (tx: Queryable) => Promise<void>) => db.withTenant(tenantId, fn).catch(onError);
  return {
    /** A login: the session, and the status the user comes back with. */
    login: (tenantId: number, userId: number, sessionId: string) =>
      write(tenantId, async (tx) => repo.insertEvent(tx, { tenantId, userId, kind: 'login', sessionId, status: await repo.statusOf(tx, userId) })),
    logout: (tenantId: number, userId: number, sessionId: string) => write(tenantId, (tx) => repo.insertEvent(tx, { tenantId, userId, kind: 'logout', sessionId })),
    /** A status saved; saving the status the user already had is not a change and writes nothing. */
    status: (tenantId: number, userId: number, status: ActivityStatus) =>
      write(tenantId, async (tx) => {
        if ((await repo.lastStatus(tx, userId)) !== status) await repo.insertEvent(tx, { tenantId, userId, kind: 'status', status });
      }),
    /** A registration that began (registered) or ended (unregistered: 'expired' or '' for an explicit one). */
    registration: (tenantId: number, extension: string, registered: boolean, at?: Date, reason = '') =>
      write(tenantId, async (tx) =>
        repo.insertEvent(tx, { tenantId, userId: await repo.userOfExtension(tx, extension), kind: registered ? 'registered' : 'unregistered', extension, at, reason }),
      ),
  };
}

