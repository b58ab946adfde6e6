import type { Db } from '../../db/db';
import { orLocal } from '../../db/redis';

/** What a REGISTER did: began or ended a registration, or only moved its expiry ('refreshed'). */
export type RegistrationChange = 'registered' | 'unregistered' | 'refreshed' | 'none';

/** A registration nobody refreshed: it ended at its expiry. */
export interface Lapse {
  tenantId: number;
  extension: string;
  at: Date;
}

/**
 * The one registration store (ADR 0038): which extensions are registered and until when, as
 * Kamailio reports each REGISTER it saved. The routing engine (who may be rung), the wall's
 * snapshot, the registration events and user activity all read it. Redis when REDIS_URL is set
 * (every instance agrees); otherwise memory written through to PostgreSQL/PGlite
 * (`sip_registrations`), so an API restart keeps every expiry.
 */
export interface RegistrationStore {
  /**
   * A REGISTER Kamailio saved: registered for `expires` more seconds (0 = unregistered), from the
   * phone whose User-Agent is `userAgent` (when it sent one).
   */
  report(tenantId: number, extension: string, expires: number, userAgent?: string): Promise<RegistrationChange>;
  /** The tenant's extensions registered now. */
  registered(tenantId: number): Promise<Set<string>>;
  /**
   * The User-Agent each extension's phone sent with its registration, where it sent one
   * (/voices/subscribers' "Thiết bị"); gone with the registration (unregister, lapse).
   */
  userAgents(tenantId: number): Promise<Map<string, string>>;
  /**
   * Registrations that ran out since the last call, removed; each is handed to one caller only
   * (several instances sweeping one Redis record a lapse once).
   */
  lapsed(): Promise<Lapse[]>;
}

const changeOf = (was: boolean, expires: number): RegistrationChange =>
  expires > 0 ? (was ? 'refreshed' : 'registered') : was ? 'unregistered' : 'none';

/** Memory only (one process, tests). `persist` is told every change (the database store). */
export function memoryRegistrations(
  now: () => number = Date.now,
  persist?: { save(tenantId: number, extension: string, until: number, userAgent: string): Promise<void>; remove(tenantId: number, extension: string, until?: number): Promise<void> },
  initial: { tenantId: number; extension: string; until: number; userAgent?: string }[] = [],
): RegistrationStore {
  /** tenant → extension → registered until (epoch ms). */
  const byTenant = new Map<number, Map<string, number>>();
  const of = (t: number) => byTenant.get(t) ?? byTenant.set(t, new Map()).get(t)!;
  /** tenant → extension → User-Agent; the database store keeps it with the registration (migration 0068). */
  const agents = new Map<number, Map<string, string>>();
  const agentsOf = (t: number) => agents.get(t) ?? agents.set(t, new Map()).get(t)!;
  for (const r of initial) {
    of(r.tenantId).set(r.extension, r.until);
    if (r.userAgent) agentsOf(r.tenantId).set(r.extension, r.userAgent);
  }
  return {
    async report(t, ext, expires, userAgent) {
      const exts = of(t);
      const until = exts.get(ext);
      const was = until !== undefined && until > now();
      if (expires > 0) {
        const next = now() + expires * 1000;
        exts.set(ext, next);
        if (userAgent) agentsOf(t).set(ext, userAgent);
        else agents.get(t)?.delete(ext);
        await persist?.save(t, ext, next, userAgent ?? '');
      } else if (until !== undefined) {
        exts.delete(ext);
        agents.get(t)?.delete(ext);
        await persist?.remove(t, ext);
      }
      return changeOf(was, expires);
    },
    async registered(t) {
      const at = now();
      // Lapsed entries stay until lapsed() collects them (their end is recorded as activity).
      return new Set([...(byTenant.get(t) ?? [])].filter(([, until]) => until > at).map(([ext]) => ext));
    },
    async userAgents(t) {
      return new Map(agents.get(t));
    },
    async lapsed() {
      const out: Lapse[] = [];
      const at = now();
      for (const [tenantId, exts] of byTenant) {
        for (const [extension, until] of exts) {
          if (until > at) continue;
          exts.delete(extension);
          agents.get(tenantId)?.delete(extension);
          out.push({ tenantId, extension, at: new Date(until) });
          await persist?.remove(tenantId, extension, until);
        }
      }
      return out;
    },
  };
}

/**
 * Memory written through to `sip_registrations` (migration 0036), read back when the API starts:
 * one API instance without Redis (as the live state, ADR 0026). A failed write is reported and
 * the memory stays right for this process.
 */
export async function dbRegistrations(db: Db, onError: (e: unknown) => void = () => undefined, now: () => number = Date.now): Promise<RegistrationStore> {
  const { rows } = await db.withSystem((tx) =>
    tx.query<{ tenant_id: number; extension: string; until: number; user_agent: string }>(
      'select tenant_id, extension, (extract(epoch from expires_at) * 1000)::float8 as until, user_agent from sip_registrations',
    ),
  );
  const write = (sql: string, params: unknown[]) => db.withSystem((tx) => tx.query(sql, params)).then(() => undefined, onError);
  return memoryRegistrations(
    now,
    {
      save: (t, ext, until, userAgent) =>
        write(
          `insert into sip_registrations (tenant_id, extension, expires_at, user_agent) values ($1, $2, to_timestamp($3::float8 / 1000), $4)
           on conflict (tenant_id, extension) do update set expires_at = excluded.expires_at, user_agent = excluded.user_agent`,
          [t, ext, until, userAgent],
        ),
      // A lapse removes the row only if no refresh moved it meanwhile.
      remove: (t, ext, until) =>
        until === undefined
          ? write('delete from sip_registrations where tenant_id = $1 and extension = $2', [t, ext])
          : write('delete from sip_registrations where tenant_id = $1 and extension = $2 and expires_at <= to_timestamp($3::float8 / 1000)', [t, ext, until]),
    },
    rows.map((r) => ({ tenantId: r.tenant_id, extension: r.extension, until: Number(r.until), userAgent: r.user_agent })),
  );
}

type RedisClient = {
  hGet(key: string, field: string): Promise<string | null | undefined | unknown>;
  hSet(key: string, field: string, value: string): Promise<unknown>;
  hDel(key: string, field: string | string[]): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  zAdd(key: string, member: { score: number; value: string }): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
  zRangeByScore(key: string, min: number | string, max: number | string): Promise<string[]>;
};

/** Every registration's expiry, for the lapse sweep: member "tenant:extension", score = until (epoch ms). */
const EXPIRY_KEY = 'tongdai:registrations:expiry';

/**
 * Redis: per tenant a hash extension → until (`tongdai:live:{tenant}:registered`, the snapshot's
 * read) and one sorted set of expiries for the sweep. Redis keeps them across API restarts; a
 * lapse is claimed by the instance whose ZREM removed it.
 */
export function redisRegistrations(redis: RedisClient, now: () => number = Date.now): RegistrationStore {
  const regKey = (t: number) => `tongdai:live:${t}:registered`;
  const agentKey = (t: number) => `tongdai:live:${t}:user-agent`;
  return {
    async report(t, ext, expires, userAgent) {
      const until = Number((await redis.hGet(regKey(t), ext)) ?? 0);
      const was = until > now();
      if (expires > 0) {
        const next = now() + expires * 1000;
        await redis.hSet(regKey(t), ext, String(next));
        await (userAgent ? redis.hSet(agentKey(t), ext, userAgent) : redis.hDel(agentKey(t), ext));
        await redis.zAdd(EXPIRY_KEY, { score: next, value: `${t}:${ext}` });
      } else if (until) {
        await redis.hDel(regKey(t), ext);
        await redis.hDel(agentKey(t), ext);
        await redis.zRem(EXPIRY_KEY, `${t}:${ext}`);
      }
      return changeOf(was, expires);
    },
    async registered(t) {
      const at = now();
      return new Set(Object.entries(await redis.hGetAll(regKey(t))).filter(([, until]) => Number(until) > at).map(([ext]) => ext));
    },
    async userAgents(t) {
      return new Map(Object.entries(await redis.hGetAll(agentKey(t))));
    },
    async lapsed() {
      const out: Lapse[] = [];
      const at = now();
      for (const member of await redis.zRangeByScore(EXPIRY_KEY, 0, at)) {
        // Another instance's sweep may have taken it: only the one whose ZREM removed it goes on.
        if (Number(await redis.zRem(EXPIRY_KEY, member)) !== 1) continue;
        const [t, extension] = [Number(member.slice(0, member.indexOf(':'))), member.slice(member.indexOf(':') + 1)];
        const until = Number((await redis.hGet(regKey(t), extension)) ?? 0);
        if (until > at) {
          // Refreshed between the range and the claim: its expiry goes back in.
          await redis.zAdd(EXPIRY_KEY, { score: until, value: member });
          continue;
        }
        if (!until) continue;
        await redis.hDel(regKey(t), extension);
        await redis.hDel(agentKey(t), extension);
        out.push({ tenantId: t, extension, at: new Date(until) });
      }
      return out;
    },
  };
}

/**
 * The shared store (Redis) with this process's own copy beside it (issue 41): every REGISTER goes to
 * the copy, and to Redis unless it is known to be `away`; while Redis does not answer, the plans, the wall and the subscribers' devices read the copy
 * (with what Redis last said), so no extension is taken for offline because Redis is away. A lapse
 * is swept from Redis only (the next sweep once it is back). Kamailio's location table rebuilds
 * Redis when it returns (call-routing.ts).
 */
export function withLocalRegistrations(shared: RegistrationStore, away: () => boolean, onError: (e: unknown) => void = () => undefined, now: () => number = Date.now): RegistrationStore {
  const local = memoryRegistrations(now);
  /** What Redis last answered per tenant: registrations this instance did not hear itself. */
  const lastRead = new Map<number, Set<string>>();
  return {
    async report(t, ext, expires, userAgent) {
      const change = await local.report(t, ext, expires, userAgent);
      if (expires <= 0) lastRead.get(t)?.delete(ext);
      return orLocal(() => shared.report(t, ext, expires, userAgent), () => change, away, onError);
    },
    registered: (t) =>
      orLocal(
        async () => {
          const set = await shared.registered(t);
          lastRead.set(t, set);
          return set;
        },
        async () => new Set([...(lastRead.get(t) ?? []), ...(await local.registered(t))]),
        away,
      ),
    userAgents: (t) => orLocal(() => shared.userAgents(t), () => local.userAgents(t), away),
    lapsed: () => orLocal(() => shared.lapsed(), () => [], away),
  };
}
