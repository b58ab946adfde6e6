import { EventEmitter } from 'node:events';
import type { MonitorEvent, PbxCallEvent } from '@tongdai/contracts';
import type { CallEvent } from '../cdr/call-tracker';
import { bounded, closeRedis, RedisStatus } from '../../db/redis';
import { memoryLiveStore, redisLiveStore, withLocalCopy, type LiveStore } from './live-state';

/** What the tenant's channel carries: call events and the wall's events (issue 14). */
export type RealtimeEvent = PbxCallEvent | MonitorEvent;

/**
 * Who an event concerns, for the server's per-socket filter (never sent to browsers): the
 * extensions that rang, answered or placed the call (or registered, changed status), and for a
 * waiting caller the queue's agents. No audience: every socket of the tenant.
 */
export interface Audience {
  extensions: string[];
  queueAgents?: string[];
}

/**
 * Where call events meet their listeners: the tracker (internal listener) publishes, the public
 * server's WebSockets subscribe per tenant. One process: memory. Several API instances
 * (REDIS_URL): Redis pub/sub, so a browser connected to one instance hears calls another
 * instance planned.
 */
export interface CallEventHub {
  /**
   * Numbers the event on the tenant's channel (its `seq`: 1, 2, 3… in the order subscribers hear
   * them) and delivers it. Whatever the event announces must be stored before (the live state, the
   * database): a snapshot that read position N then the state holds every event up to N.
   */
  publish(tenantId: number, event: RealtimeEvent, audience?: Audience): void;
  /** Returns the unsubscribe function. */
  subscribe(tenantId: number, listener: (e: RealtimeEvent, audience?: Audience) => void): () => void;
  /**
   * The position of the tenant's last event published (0 before any): read by the /monitor
   * snapshot before it reads the state, so that the screen applies on top only the events after it.
   * Undefined when it cannot be known (Redis away): the screen then applies every event it heard.
   */
  position(tenantId: number): Promise<number | undefined>;
  /** The live state (calls in progress, registrations) every instance reads alike (ADR 0026). */
  live: LiveStore;
  /**
   * Sessions that ended (logout, lock, password change, deletion): every instance closes their
   * sockets. Call it once the revocation is committed.
   */
  endSessions(tenantId: number, ended: EndedSessions): void;
  /** Returns the unsubscribe function. */
  onSessionsEnded(tenantId: number, listener: (ended: EndedSessions) => void): () => void;
  /**
   * Something every instance caches of a tenant changed (committed) on this instance: its PBX
   * configuration (the routing snapshot, the DID → tenant map) or its extensions' SIP credentials
   * (Kamailio's cached HA1s, which only the call plane's instance can tell Kamailio to forget). Every
   * instance hears it (issue 42). One process: its own listeners only.
   */
  changed(kind: TenantChange, tenantId: number): void;
  /** Returns the unsubscribe function. The listener hears every instance's changes, this one's too. */
  onChanged(kind: TenantChange, listener: (tenantId: number) => void): () => void;
  /**
   * `fn` runs each time the shared store answers again after an outage (Redis back, issue 41): what
   * it lost is to be rebuilt (the registrations, from Kamailio's location table). Absent in memory.
   */
  onStoreBack?(fn: () => void): () => void;
  close(): Promise<void>;
}

declare module '../../deps' {
  interface AppDeps {
    /** Call events to the tenants' WebSockets (memory, or Redis pub/sub with REDIS_URL). */
    hub: CallEventHub;
  }
}

/** What `changed` announces: a tenant's PBX configuration, or its extensions' SIP credentials. */
export type TenantChange = 'pbx-config' | 'sip-credentials';

/** One session, or every session of a user but (optionally) the one that asked for it. */
export type EndedSessions = { sessionId: string } | { userId: number; exceptSessionId?: string };

/** Does the socket of `session` belong to what ended? */
export function isEnded(ended: EndedSessions, session: { userId: number; sessionId: string }): boolean {
  if ('sessionId' in ended) return ended.sessionId === session.sessionId;
  return ended.userId === session.userId && ended.exceptSessionId !== session.sessionId;
}

/** One process's subscribers: what it is given, it delivers as given (numbered or not). */
function localHub(live: LiveStore): Omit<CallEventHub, 'position'> {
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  return {
    live,
    publish: (tenantId, event, audience) => void ee.emit(`t${tenantId}`, event, audience),
    subscribe: (tenantId, listener) => {
      ee.on(`t${tenantId}`, listener);
      return () => void ee.off(`t${tenantId}`, listener);
    },
    endSessions: (tenantId, ended) => void ee.emit(`s${tenantId}`, ended),
    onSessionsEnded: (tenantId, listener) => {
      ee.on(`s${tenantId}`, listener);
      return () => void ee.off(`s${tenantId}`, listener);
    },
    changed: (kind, tenantId) => void ee.emit(`c:${kind}`, tenantId),
    onChanged: (kind, listener) => {
      ee.on(`c:${kind}`, listener);
      return () => void ee.off(`c:${kind}`, listener);
    },
    close: async () => void ee.removeAllListeners(),
  };
}

/**
 * One process: the tenant's counter in memory. Exact: publish numbers and delivers at once, and the
 * snapshot reads the counter before the state, on the one thread (the state each event announces is
 * stored before it is published).
 */
export function memoryHub(live: LiveStore = memoryLiveStore()): CallEventHub {
  const local = localHub(live);
  const last = new Map<number, number>();
  return {
    ...local,
    publish: (tenantId, event, audience) => {
      const seq = (last.get(tenantId) ?? 0) + 1;
      last.set(tenantId, seq);
      local.publish(tenantId, { ...event, seq }, audience);
    },
    position: async (tenantId) => last.get(tenantId) ?? 0,
  };
}

const CHANNEL = 'tongdai:pbx-calls';
const SESSIONS_CHANNEL = 'tongdai:sessions-ended';
const CHANGES_CHANNEL = 'tongdai:tenant-changed';
const seqKey = (tenantId: number) => `tongdai:live:${tenantId}:seq`;

/**
 * Numbers and publishes in one step, so that the numbers follow the order every subscriber hears the
 * messages in, whichever instance published them: ARGV[2] is the message's JSON object, given its seq in front.
 */
const NUMBERED_PUBLISH = `local seq = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], '{"seq":' .. seq .. ',' .. string.sub(ARGV[2], 2))
return seq`;

/** Raises the tenant's counter to ARGV[1] if it is below (a restarted Redis lost it; the instances remember). */
const RAISE_SEQ = `if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

/**
 * Redis pub/sub: one channel, the tenant inside the message, delivered to this instance's subscribers.
 * While Redis is away (issue 41) nothing waits on it (RedisStatus.connect): events reach this
 * instance's own sockets, the live state is read from this instance's copy, and once it is back the
 * copy's calls are written again.
 */
export async function redisHub(url: string, onError: (e: unknown) => void = () => undefined, status = new RedisStatus()): Promise<CallEventHub> {
  const [pub, sub] = await Promise.all([status.connect(url, 'call events', onError), status.connect(url, 'call events (subscriber)', onError)]);
  // The live state's writes and the events go out on one connection: Redis applies them in order,
  // so a socket that hears an event and asks for a snapshot finds the state the event announced.
  // A write Redis missed while away is said once (the status's line), not once per call event.
  const unlessAway = (err: unknown) => void (status.up && onError(err));
  const live = withLocalCopy(redisLiveStore(pub, onError), () => !status.up, unlessAway);
  const local = localHub(live);
  /** The last position heard per tenant: what a Redis that restarted empty is given back. */
  const heard = new Map<number, number>();
  const stopRebuild = status.onBack(() => {
    void live.rebuild().catch(onError);
    // Without it the counter would start again at 1 and the screens, holding a higher position,
    // would take every new event for one they already include.
    for (const [t, seq] of heard) void bounded(pub.eval(RAISE_SEQ, { keys: [seqKey(t)], arguments: [String(seq)] })).catch(unlessAway);
  });
  const relay = <T>(deliver: (tenantId: number, event: T, audience?: Audience) => void) => (message: string) => {
    try {
      const m = JSON.parse(message) as { seq?: number; tenantId: number; event: T; audience?: Audience };
      if (m.seq === undefined) return deliver(m.tenantId, m.event, m.audience);
      heard.set(m.tenantId, Math.max(m.seq, heard.get(m.tenantId) ?? 0));
      deliver(m.tenantId, { ...m.event, seq: m.seq }, m.audience);
    } catch (e) {
      onError(e);
    }
  };
  await sub.subscribe(CHANNEL, relay(local.publish));
  await sub.subscribe(SESSIONS_CHANNEL, relay(local.endSessions));
  await sub.subscribe(CHANGES_CHANNEL, relay((tenantId, kind: TenantChange) => local.changed(kind, tenantId)));
  // Redis away: this instance's sockets still hear what this instance publishes (a Redis that answers
  // after 0.5 s may then deliver it twice; the browsers' screens apply an event again harmlessly).
  // Unnumbered: the tenant's counter is Redis's, and a number of this instance's own would mean
  // nothing beside the positions of the snapshots other instances answer.
  const deliverHere = (channel: string, tenantId: number, event: unknown, audience?: Audience) =>
    channel === CHANNEL ? local.publish(tenantId, event as RealtimeEvent, audience) : local.endSessions(tenantId, event as EndedSessions);
  const send = (channel: string, tenantId: number, event: unknown, audience?: Audience) => {
    if (!status.up) return deliverHere(channel, tenantId, event, audience);
    const message = JSON.stringify({ tenantId, event, audience });
    // On `pub`, after the live state's writes of the same change (withLocalCopy sends them at once).
    const sent = channel === CHANNEL ? pub.eval(NUMBERED_PUBLISH, { keys: [seqKey(tenantId)], arguments: [channel, message] }) : pub.publish(channel, message);
    void bounded(sent).catch((err: unknown) => {
      deliverHere(channel, tenantId, event, audience);
      unlessAway(err);
    });
  };
  return {
    live,
    publish: (tenantId, event, audience) => send(CHANNEL, tenantId, event, audience),
    subscribe: local.subscribe,
    // On `pub` too: Redis answers it after every write this instance sent before, and in one order
    // with every other instance's, so the state the snapshot reads next includes every event up to it.
    position: async (tenantId) => {
      if (!status.up) return undefined;
      return bounded(pub.get(seqKey(tenantId))).then((v) => Number(v ?? 0), () => undefined);
    },
    endSessions: (tenantId, ended) => send(SESSIONS_CHANNEL, tenantId, ended),
    onSessionsEnded: local.onSessionsEnded,
    // Other instances hear it through Redis; this one at once too (its own message comes back later:
    // a second drop of what it just reloaded, at most). Redis away: the caches' TTLs bound the others.
    changed: (kind, tenantId) => {
      local.changed(kind, tenantId);
      if (status.up) void bounded(pub.publish(CHANGES_CHANNEL, JSON.stringify({ tenantId, event: kind }))).catch(unlessAway);
    },
    onChanged: local.onChanged,
    onStoreBack: (fn) => status.onBack(fn),
    close: async () => {
      stopRebuild();
      await local.close();
      await Promise.all([closeRedis(sub), closeRedis(pub)]);
    },
  };
}

/** The tracker's event as browsers receive it (no tenant id: the channel is the tenant's). */
export function toPbxCallEvent(e: CallEvent, at = Date.now()): PbxCallEvent {
  const base = { kind: 'tongdai.pbx-call' as const, version: 1 as const, callId: e.callId, at };
  switch (e.type) {
    case 'ringing':
      return { ...base, type: 'ringing', caller: e.caller, callee: e.callee, extensions: e.extensions };
    case 'answered':
      return { ...base, type: 'answered', extension: e.extension };
    case 'ended':
      return { ...base, type: 'ended', disposition: e.disposition, extension: e.extension };
  }
}
