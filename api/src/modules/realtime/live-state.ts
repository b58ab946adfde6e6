import type { LiveCall } from '@tongdai/contracts';
import { bounded, orLocal } from '../../db/redis';
import { memoryRegistrations, redisRegistrations, withLocalRegistrations, type RegistrationStore } from './registration-store';

/**
 * The live state of every tenant (ADR 0026): calls in progress (ringing, waiting in a queue,
 * talking) and which extensions are registered. The internal listener writes it as Kamailio and
 * the media workers report; the public server's snapshot reads it. One process: memory. Several
 * API instances (REDIS_URL): Redis hashes, so any instance answers the same snapshot. Registrations
 * are the one registration store (ADR 0038), which the routing engine reads too.
 */
export interface LiveEntry extends LiveCall {
  /** Extensions this call concerns (rang, answered, placed it): who may receive its events. */
  involved: string[];
  /** The agents of the queue it waits in (a department manager's wall shows the waiting caller). */
  queue_agents: string[];
  /** Epoch ms after which the entry is stale (the instance that wrote it went away). */
  expires_at: number;
}

export interface LiveStore {
  putCall(tenantId: number, call: LiveEntry): Promise<void>;
  removeCall(tenantId: number, callId: string): Promise<void>;
  calls(tenantId: number): Promise<LiveEntry[]>;
  /** Which extensions are registered (ADR 0038). */
  registrations: RegistrationStore;
}

/** How long an entry may stay without news: an unanswered call 10 min, an answered one 12 h (the tracker's sweep). */
export const liveExpiry = (call: Pick<LiveCall, 'answered_at'>, now = Date.now()): number => now + (call.answered_at ? 12 * 3_600_000 : 10 * 60_000);

export function memoryLiveStore(now: () => number = Date.now, registrations: RegistrationStore = memoryRegistrations(now)): LiveStore {
  const calls = new Map<number, Map<string, LiveEntry>>();
  const of = <V>(m: Map<number, Map<string, V>>, t: number) => m.get(t) ?? m.set(t, new Map()).get(t)!;
  return {
    registrations,
    putCall: async (t, call) => void of(calls, t).set(call.call_id, call),
    removeCall: async (t, id) => void calls.get(t)?.delete(id),
    calls: async (t) => [...(calls.get(t)?.values() ?? [])].filter((c) => c.expires_at > now()),
  };
}

type RedisClient = Parameters<typeof redisRegistrations>[0] & {
  pExpire(key: string, ms: number): Promise<unknown>;
};

const KEEP_MS = 13 * 3_600_000;

/** Redis: one hash of calls per tenant (stale fields are dropped as they are read) and the registrations' store. */
export function redisLiveStore(redis: RedisClient, onError: (e: unknown) => void = () => undefined, now: () => number = Date.now): LiveStore {
  const callsKey = (t: number) => `tongdai:live:${t}:calls`;
  const drop = (key: string, fields: string[]) => void (fields.length && redis.hDel(key, fields).catch(onError));
  return {
    registrations: redisRegistrations(redis, now),
    async putCall(t, call) {
      await redis.hSet(callsKey(t), call.call_id, JSON.stringify(call));
      await redis.pExpire(callsKey(t), KEEP_MS);
    },
    removeCall: async (t, id) => void (await redis.hDel(callsKey(t), id)),
    async calls(t) {
      const all = Object.entries(await redis.hGetAll(callsKey(t))).map(([id, json]) => [id, JSON.parse(json) as LiveEntry] as const);
      drop(callsKey(t), all.filter(([, c]) => c.expires_at <= now()).map(([id]) => id));
      return all.map(([, c]) => c).filter((c) => c.expires_at > now());
    },
  };
}

/**
 * The shared store (Redis) with this process's own copy beside it (issue 41): every write goes to
 * the copy, and to Redis unless it is known to be `away`; a read Redis cannot answer in time (or while
 * it is away) comes from the copy (the /monitor snapshot never waits on
 * Redis, and shows this instance's calls). `rebuild()`, once Redis is back, writes the calls in
 * progress again (a restarted Redis lost them) and the removals it missed (no ghost stays ringing).
 */
export function withLocalCopy(shared: LiveStore, away: () => boolean, onError: (e: unknown) => void = () => undefined, now: () => number = Date.now): LiveStore & { rebuild(): Promise<void> } {
  const local = memoryLiveStore(now, withLocalRegistrations(shared.registrations, away, onError, now));
  /** Removals Redis did not take, by "tenant:call". */
  const missed = new Map<string, { tenantId: number; callId: string }>();
  const tenants = new Set<number>();
  return {
    registrations: local.registrations,
    // Both stores are written before the first await: Redis gets the write before the event the
    // caller publishes next on the same connection (a snapshot numbered after the event finds the
    // change; awaiting the copy first sent the event ahead of the write).
    async putCall(t, call) {
      tenants.add(t);
      missed.delete(`${t}:${call.call_id}`);
      // Away: written with the others when it is back (rebuild).
      const written = away() ? undefined : bounded(shared.putCall(t, call)).catch(onError);
      await local.putCall(t, call);
      await written;
    },
    async removeCall(t, id) {
      const miss = () => void missed.set(`${t}:${id}`, { tenantId: t, callId: id });
      const removed = away()
        ? miss()
        : bounded(shared.removeCall(t, id)).catch((err: unknown) => {
            miss();
            onError(err);
          });
      await local.removeCall(t, id);
      await removed;
    },
    calls: (t) => orLocal(() => shared.calls(t), () => local.calls(t), away),
    async rebuild() {
      for (const [key, m] of missed) {
        await shared.removeCall(m.tenantId, m.callId);
        missed.delete(key);
      }
      for (const t of tenants) for (const call of await local.calls(t)) await shared.putCall(t, call);
    },
  };
}
