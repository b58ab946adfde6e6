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
  publish(tenantId: number, event: RealtimeEvent, audience?: Audience): void;
  /** Returns the unsubscribe function. */
  subscribe(tenantId: number, listener: (e: RealtimeEvent, audience?: Audience) => void): () => void;
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

/** One session, or every session of a user but (optionally) the one that asked for it. */
export type EndedSessions = { sessionId: string } | { userId: number; exceptSessionId?: string };

/** Does the socket of `session` belong to what ended? */
export function isEnded(ended: EndedSessions, session: { userId: number; sessionId: string }): boolean {
  if ('sessionId' in ended) return ended.sessionId === session.sessionId;
  return ended.userId === session.userId && ended.exceptSessionId !== session.sessionId;
}

export function memoryHub(live: LiveStore = memoryLiveStore()): CallEventHub {
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
    close: async () => void ee.removeAllListeners(),
  };
}

const CHANNEL = 'tongdai:pbx-calls';
const SESSIONS_CHANNEL = 'tongdai:sessions-ended';

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
  const stopRebuild = status.onBack(() => void live.rebuild().catch(onError));
  const local = memoryHub(live);
  const relay = <T>(deliver: (tenantId: number, event: T, audience?: Audience) => void) => (message: string) => {
    try {
      const m = JSON.parse(message) as { tenantId: number; event: T; audience?: Audience };
      deliver(m.tenantId, m.event, m.audience);
    } catch (e) {
      onError(e);
    }
  };
  await sub.subscribe(CHANNEL, relay(local.publish));
  await sub.subscribe(SESSIONS_CHANNEL, relay(local.endSessions));
  // Redis away: this instance's sockets still hear what this instance publishes (a Redis that answers
  // after 0.5 s may then deliver it twice; the browsers' screens apply an event again harmlessly).
  const deliverHere = (channel: string, tenantId: number, event: unknown, audience?: Audience) =>
    channel === CHANNEL ? local.publish(tenantId, event as RealtimeEvent, audience) : local.endSessions(tenantId, event as EndedSessions);
  const send = (channel: string, tenantId: number, event: unknown, audience?: Audience) => {
    if (!status.up) return deliverHere(channel, tenantId, event, audience);
    void bounded(pub.publish(channel, JSON.stringify({ tenantId, event, audience }))).catch((err: unknown) => {
      deliverHere(channel, tenantId, event, audience);
      unlessAway(err);
    });
  };
  return {
    live,
    publish: (tenantId, event, audience) => send(CHANNEL, tenantId, event, audience),
    subscribe: local.subscribe,
    endSessions: (tenantId, ended) => send(SESSIONS_CHANNEL, tenantId, ended),
    onSessionsEnded: local.onSessionsEnded,
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
