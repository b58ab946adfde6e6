import { Client } from 'pg';

/**
 * Which API instance runs the call plane (ADR 0059): the one that answers Kamailio's plans and the
 * media workers, follows the calls in progress (the tracker, its journal) and reads Kamailio's
 * events. One at a time, so that no call is followed, recorded or announced twice; the others serve
 * the public API and stand by, and the first to take the lease after the holder stops takes the calls
 * over (the journal, then what Kamailio kept unacknowledged: the restart path of ADR 0046).
 */
export interface CallPlaneLease {
  /** True while this instance holds the lease. */
  readonly held: boolean;
  /** Resolves once this instance holds it; rejects if it is released first (a standby that stops). */
  acquired(): Promise<void>;
  /**
   * `fn` runs once if the lease, once held, is found held by another instance (this one's session
   * ended, a partition): this instance must stop serving calls at once (main.ts exits).
   */
  onLost(fn: () => void): void;
  /** Gives the lease up (after the call plane wrote what it holds); idempotent. */
  release(): Promise<void>;
}

/** One instance (PGlite, whose data folder one process owns; or a deployment of one): held from the start. */
export function soleLease(): CallPlaneLease {
  return { held: true, acquired: async () => undefined, onLost: () => undefined, release: async () => undefined };
}

/** The advisory lock's key, the same in every instance of a deployment (one database, one call plane). */
export const CALL_PLANE_LOCK = 7_466_372_001;

/**
 * A PostgreSQL session advisory lock, on a connection of its own: held as long as that session lives,
 * so a holder that dies (killed, its machine gone once TCP keepalive notices) frees it without anyone
 * deciding. A standby tries every `pollMs`. A holder whose connection broke (PostgreSQL restarting)
 * keeps serving and takes the lock again once the database answers; if another instance has it by
 * then, `onLost` fires. Resolves after the first try: an instance alone knows before it listens.
 */
export async function postgresLease(url: string, opts: { pollMs?: number; log?: (msg: string) => void } = {}): Promise<CallPlaneLease> {
  const pollMs = opts.pollMs ?? 500;
  const log = opts.log ?? ((msg: string) => console.warn(msg));
  let client: Client | null = null;
  let held = false;
  let everHeld = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let lostFns: (() => void)[] = [];
  let settle: { resolve: () => void; reject: (e: Error) => void } | null = null;
  const acquiredOnce = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  acquiredOnce.catch(() => undefined);

  async function session(): Promise<Client> {
    if (client) return client;
    const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000, keepAlive: true, application_name: 'tongdai call plane lease' });
    c.on('error', () => {
      // The session is gone, and the lock with it: a holder goes on (nobody else can take it while
      // the database is away) and asks again at the next try.
      if (client === c) client = null;
    });
    await c.connect();
    client = c;
    return c;
  }

  async function tryOnce(): Promise<void> {
    try {
      const c = await session();
      const { rows } = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [CALL_PLANE_LOCK]);
      if (rows[0]?.ok) {
        if (!held) {
          held = true;
          everHeld = true;
          settle?.resolve();
        }
        return;
      }
      if (held) {
        // Our session ended and another instance took the lock meanwhile: two call planes now.
        held = false;
        log('call plane lease: another API instance holds it now; this one stops following calls');
        const fns = lostFns;
        lostFns = [];
        for (const fn of fns) fn();
      }
    } catch {
      // Database away: a standby stays one, a holder stays the holder; tried again.
      client?.end().catch(() => undefined);
      client = null;
    }
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    // The holder checks its session as often: a lost one is taken back before a standby notices.
    if (!held || !client) await tryOnce();
    if (!stopped) timer = setTimeout(() => void loop(), pollMs);
    timer?.unref();
  }
  await tryOnce();
  timer = setTimeout(() => void loop(), pollMs);
  timer.unref();

  return {
    get held() {
      return held;
    },
    acquired: () => acquiredOnce,
    onLost: (fn) => void lostFns.push(fn),
    async release() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      if (!everHeld) settle?.reject(new Error('released before it was held'));
      held = false;
      const c = client;
      client = null;
      // Ending the session frees the lock at once (no unlock round trip needed).
      await c?.end().catch(() => undefined);
    },
  };
}
