import { Client } from 'pg';
import type { ReportFreshness } from '@tongdai/contracts';
import { isTransientDbError, type Db, type Queryable } from './db';
import { postgresPool } from './postgres';

/**
 * Where the read model is read (issue 42, ADR 0058): call history and every summary, the exports,
 * the KPIs' figures, user activity and the dashboard's chart. A streaming replica with
 * REPORTS_DATABASE_URL, else the primary itself. Only reads come here: its connections refuse writes.
 */
export interface ReportsDb extends Db {
  /** Where the reports read now and how far that trails the primary (measured at most once a second). */
  freshness(): Promise<ReportFreshness>;
}

/** No replica: the reports read the primary. `close` leaves the primary to its owner. */
export function primaryReports(db: Db): ReportsDb {
  return { ...db, close: async () => undefined, freshness: async () => ({ source: 'primary', lag_seconds: 0 }) };
}

/**
 * REPORTS_DATABASE_URL, checked against the rest of the configuration: undefined when unset; an
 * error (the API refuses to start) when it cannot mean a replica of DATABASE_URL.
 */
export function reportsReplicaUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.REPORTS_DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!env.DATABASE_URL) {
    throw new Error(
      'REPORTS_DATABASE_URL is set but DATABASE_URL is not: the reports replica is a streaming replica of a PostgreSQL server, ' +
        'and without DATABASE_URL the API runs on its embedded database, which has none. Set DATABASE_URL too, or unset REPORTS_DATABASE_URL.',
    );
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('REPORTS_DATABASE_URL must be a postgres:// URL naming a streaming replica of DATABASE_URL');
  if (url === env.DATABASE_URL.trim()) throw new Error('REPORTS_DATABASE_URL names DATABASE_URL itself: give the replica\'s address, or unset it (reports then read the primary)');
  return url;
}

/** host:port/database of a URL, without its credentials (for the log). */
export function whereIs(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
}

export interface ReplicaOptions {
  /** Where state changes are told (default console.warn). */
  log?: (message: string) => void;
  /** While the replica is away, how often it is tried again (default 5 s). */
  probeEveryMs?: number;
  /**
   * How long a read waits for the replica to replay what the primary had committed when the read
   * began (default 1 s), so a screen refreshed by a call's end shows that call. A replica found
   * further behind is read at once (and its lag shown) until it catches up again.
   */
  catchUpMs?: number;
  /** How long the measured lag is reused (default 1 s). */
  lagCacheMs?: number;
  /** The replica's pool: size, and how long a connection or a query may take (postgres.ts's defaults). */
  poolSize?: number;
  connectTimeout?: number;
  queryTimeout?: number;
}

/**
 * The lag as PostgreSQL's documentation measures it: 0 when the standby has replayed everything it
 * received while its WAL receiver runs (an idle primary sends nothing, and is not "behind"), else
 * the age of the last transaction replayed. Not a standby (promoted, or the primary itself): 0.
 */
const LAG_SQL = `select case
    when not pg_is_in_recovery() then 0
    when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() and exists (select 1 from pg_stat_wal_receiver) then 0
    else greatest(0, coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0))
  end::float8 as lag`;
/** `ready`: the role the reports connect as exists there (a replica made before the primary's first migration has it only once it has replayed it). */
const IDENTITY_SQL = `select (select system_identifier::text from pg_control_system()) as system, current_database() as database, pg_is_in_recovery() as standby,
  exists (select 1 from pg_roles where rolname = 'app_user') as ready`;
type Identity = { system: string; database: string; standby: boolean; ready: boolean };
const NOT_REPLAYED = 'it has not replayed the role app_user yet';

/** A hot standby cancelled the statement because replaying the primary's changes needed its rows. */
const isRecoveryConflict = (err: unknown) => (err as { code?: string }).code === '40001' && /conflict with recovery/i.test(String((err as Error).message));
const isQueryTimeout = (err: unknown) => err instanceof Error && /Query read timeout/.test(err.message);
/** The replica refused the connection's role: it is behind the migration that made it (or was rebuilt from an older copy). */
const isRoleMissing = (err: unknown) => err instanceof Error && /role "app_user" does not exist/.test(err.message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The reports on a streaming replica of `primary`: the same app_user connections, tenant
 * transactions and row-level security as the primary (withTenant), each connection read-only.
 *
 * Start-up refuses a URL whose server is not a copy of the primary's database (another cluster or
 * database); one that is not a standby is read with a warning. A replica that does not answer —
 * at start-up or later — is not an outage of the reports: they are read from the primary meanwhile
 * (logged once when it goes and once when it is back, tried again every `probeEveryMs`), as the
 * primary holds everything the replica would. A statement the standby cancelled for a replay
 * conflict is read again on the primary.
 */
export async function openReportsReplica(url: string, primary: Db, o: ReplicaOptions = {}): Promise<ReportsDb> {
  const log = o.log ?? ((m: string) => console.warn(m));
  const where = whereIs(url);
  const probeEveryMs = o.probeEveryMs ?? 5000;
  const catchUpMs = o.catchUpMs ?? 1000;
  const lagCacheMs = o.lagCacheMs ?? 1000;
  const connectTimeout = o.connectTimeout ?? 2000;
  const replica = postgresPool(url, { poolSize: o.poolSize, connectTimeout, queryTimeout: o.queryTimeout, readOnly: true, applicationName: 'tongdai-reports' });
  const ours = (await primary.query<{ system: string; database: string }>(IDENTITY_SQL)).rows[0];

  /** The replica's identity through a connection of its own (not the pool, which may be the part that is stuck); null: no answer. */
  async function identity(): Promise<Identity | null> {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeout, query_timeout: connectTimeout, application_name: 'tongdai-reports-probe' });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query<Identity>(IDENTITY_SQL)).rows[0];
    } catch {
      return null;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const stranger = (id: Identity) => id.system !== ours.system || id.database !== ours.database;
  const strangerWords = (id: Identity) =>
    `REPORTS_DATABASE_URL (${where}) is not a replica of DATABASE_URL's database: its cluster ${id.system}, database "${id.database}"; the primary's ${ours.system}, "${ours.database}"`;

  let up = true;
  let probe: NodeJS.Timeout | null = null;
  let probing = false;
  let lag: { at: number; value: Promise<ReportFreshness> } | null = null;
  /** The last catch-up wait gave up: reads go on at once until the replica is seen caught up. */
  let behind = false;

  /** The replica put aside: `reason` why; NOT_REPLAYED is a replica that answers but lacks the schema yet. */
  const goneSince = (reason: string) => {
    if (up) {
      log(reason === NOT_REPLAYED
        ? `Reports replica ${where} not ready (${reason}): reports read the primary until it has`
        : `Reports replica ${where} unreachable (${reason}): reports read the primary until it answers again`);
    }
    up = false;
    lag = null;
    probe ??= setInterval(() => void tryAgain(), probeEveryMs).unref();
  };
  const back = () => {
    if (probe) clearInterval(probe);
    probe = null;
    if (!up) log(`Reports replica ${where} answers again: reports read it again`);
    up = true;
  };
  let refusedLogged = false;
  async function tryAgain(): Promise<void> {
    if (probing) return; // the last try still waits for its answer
    probing = true;
    const id = await identity().finally(() => (probing = false));
    if (!id) return;
    if (stranger(id)) {
      if (!refusedLogged) log(`${strangerWords(id)}: reports keep reading the primary`);
      refusedLogged = true;
      return;
    }
    if (!id.ready) return;
    back();
  }

  const first = await identity();
  if (first && stranger(first)) {
    await replica.close();
    throw new Error(strangerWords(first));
  }
  if (!first) goneSince('no answer at start-up');
  // A replica made beside a new deployment (the compose replica, copied before the first migration) is seconds
  // behind while the API migrates: not an error, the primary serves the reports until the role has reached it.
  else if (!first.ready) goneSince(NOT_REPLAYED);
  else if (!first.standby) log(`REPORTS_DATABASE_URL (${where}) is not a standby (pg_is_in_recovery() is false): reports read it, its connections take no write`);

  /**
   * Waits (at most catchUpMs) until the replica has replayed what the primary had written when the
   * read began: its commits are then visible in this transaction's next statements.
   */
  async function catchUp(tx: Queryable): Promise<void> {
    if (catchUpMs <= 0) return;
    let target: string;
    try {
      target = (await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0].lsn;
    } catch {
      return; // the primary away: the replica's figures are all there is
    }
    const until = Date.now() + (behind ? 0 : catchUpMs);
    for (;;) {
      const { rows } = await tx.query<{ ok: boolean | null }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [target]);
      // null: not a standby, nothing to wait for.
      if (rows[0].ok !== false) return void (behind = false);
      if (Date.now() >= until) return void (behind = true);
      await sleep(15);
    }
  }

  /** On the replica while it answers, else (and when it stops answering mid-read) on the primary. */
  async function route<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (!up) return onPrimary();
    try {
      return await onReplica();
    } catch (err) {
      if (isRecoveryConflict(err)) {
        log(`Reports replica ${where} cancelled a read (replay conflict): read again on the primary`);
        return onPrimary();
      }
      if (isRoleMissing(err)) {
        goneSince(NOT_REPLAYED);
        return onPrimary();
      }
      if (!isTransientDbError(err)) throw err;
      // A slow statement on a replica that answers is the statement's doing: its error stands.
      if (await identity()) {
        if (isQueryTimeout(err)) throw err;
      } else goneSince((err as Error).message);
      return onPrimary();
    }
  }

  return {
    kind: 'postgres',
    withTenant: (tenantId, fn) =>
      route(
        () => replica.withTenant(tenantId, async (tx) => (await catchUp(tx), fn(tx))),
        () => primary.withTenant(tenantId, fn),
      ),
    withSystem: (fn) => route(() => replica.withSystem(fn), () => primary.withSystem(fn)),
    query: (sql, params) => route(() => replica.query(sql, params), () => primary.query(sql, params)),
    async freshness(): Promise<ReportFreshness> {
      if (!up) return { source: 'fallback', lag_seconds: 0 };
      if (lag && Date.now() - lag.at < lagCacheMs) return lag.value;
      const value = replica.query<{ lag: number }>(LAG_SQL).then(
        ({ rows }): ReportFreshness => ({ source: 'replica', lag_seconds: Math.round(rows[0].lag) }),
        async (err): Promise<ReportFreshness> => {
          if (isRoleMissing(err)) {
            goneSince(NOT_REPLAYED);
            return { source: 'fallback', lag_seconds: 0 };
          }
          if (!isTransientDbError(err)) throw err;
          if (!(await identity())) goneSince((err as Error).message);
          return { source: up ? 'replica' : 'fallback', lag_seconds: 0 };
        },
      );
      lag = { at: Date.now(), value };
      return value;
    },
    async close() {
      if (probe) clearInterval(probe);
      probe = null;
      await replica.close();
    },
  };
}
