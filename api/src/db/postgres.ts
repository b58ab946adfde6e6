import { Client, Pool, type PoolClient } from 'pg';
import { enterSystem, enterTenant, isTransientDbError, type Db, type Queryable, type Tx } from './db';
import { migrate } from './migrate';

/** fn inside BEGIN … COMMIT on one client (ROLLBACK if it throws): migrations and pooled requests. */
export async function inTransaction<T>(client: Client | PoolClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const tx: Tx = {
    query: async (sql, params) => client.query(sql, params as unknown[]) as never,
    exec: async (sql) => {
      await client.query(sql);
    },
  };
  await client.query('begin');
  try {
    const result = await fn(tx);
    await client.query('commit');
    return result;
  } catch (err) {
    // A server that did not answer in time will not answer a ROLLBACK either: the connection is
    // dropped (released broken), which ends the transaction on the server.
    if (!isQueryTimeout(err)) await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

/** node-postgres gave up waiting for a query's answer (`query_timeout`). */
const isQueryTimeout = (err: unknown) => err instanceof Error && /Query read timeout/.test(err.message);

/**
 * How long a query may wait for the server's answer (DB_QUERY_TIMEOUT_MS, default 15 s). A server
 * that stops answering without closing its connections (SIGSTOP, a frozen host, a partition) left
 * a query on an open connection waiting for ever: the request never answered (issue 41). 15 s, not
 * less: a report or an export over a long range is one legitimate query that may take seconds, and
 * the bound only has to be finite (a call's plan has its own 2 s bound in Kamailio).
 */
export const queryTimeoutMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const ms = Number(env.DB_QUERY_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : 15_000;
};

/**
 * A real PostgreSQL server. Migrations run as the connecting user (it must own the schema);
 * every pooled connection then drops to `app_user`, which RLS applies to.
 */
export async function openPostgres(url: string, poolSize = 10, queryTimeout = queryTimeoutMs(), connectTimeout = 3000): Promise<Db> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await migrate((fn) => inTransaction(admin, fn));
  } finally {
    await admin.end();
  }
  return postgresPool(url, { poolSize, queryTimeout, connectTimeout });
}

export interface PoolOptions {
  poolSize?: number;
  queryTimeout?: number;
  connectTimeout?: number;
  /**
   * Refuse every write on these connections (`default_transaction_read_only`): the reports' replica
   * (db/replica.ts), so that a URL naming a writable server by mistake still takes no write.
   */
  readOnly?: boolean;
  /** What pg_stat_activity shows for these connections. */
  applicationName?: string;
}

/** A pool of `app_user` connections to a server already migrated: the Db every request uses. */
export function postgresPool(url: string, o: PoolOptions = {}): Db {
  const { poolSize = 10, queryTimeout = queryTimeoutMs(), connectTimeout = 3000 } = o;
  // The role is set in the startup packet: a connection that cannot become app_user fails
  // to open instead of silently running as the (RLS-exempt) owner.
  // A server that does not answer (stopped, unreachable): a request waits at most 3 s for a
  // connection (`connectTimeout`: a test's own burst may give itself longer), then answers 503
  // DATABASE_UNAVAILABLE (issue 41), never hangs.
  // One that stops answering on an open connection: each query given up after queryTimeoutMs, the
  // connection dropped, the request 503 DATABASE_UNAVAILABLE (isTransientDbError).
  const pool = new Pool({
    connectionString: url, max: poolSize, connectionTimeoutMillis: connectTimeout, query_timeout: queryTimeout,
    options: `-c role=app_user${o.readOnly ? ' -c default_transaction_read_only=on' : ''}`, ...(o.applicationName && { application_name: o.applicationName }),
  });
  // An idle client dropped by the server (restart, admin kill) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', (err) => console.error('postgres idle client error:', err.message));
  const run = async <T>(enter: (tx: Queryable) => Promise<void>, fn: (tx: Queryable) => Promise<T>) => {
    const client = await pool.connect();
    // A checked-out client is ours to watch (the pool only watches idle ones): a connection the
    // server ends mid-transaction (restart, shutdown) emits 'error', which unheard crashes the
    // process (seen stopping PostgreSQL under load, issue 41). Its query rejects by itself; the
    // client goes back broken, so the pool drops it.
    let broken: Error | undefined;
    const onError = (err: Error) => (broken = err);
    client.on('error', onError);
    try {
      return await inTransaction(client, async (tx) => {
        await enter(tx);
        return fn(tx);
      });
    } catch (err) {
      broken ??= isTransientDbError(err) ? (err as Error) : undefined;
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  };
  return {
    kind: 'postgres',
    withTenant: (tenantId, fn) => run((tx) => enterTenant(tx, tenantId), fn),
    withSystem: (fn) => run(enterSystem, fn),
    query: async (sql, params) => pool.query(sql, params as unknown[]) as never,
    close: () => pool.end(),
  };
}
