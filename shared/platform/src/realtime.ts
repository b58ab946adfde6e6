import { BehaviorSubject, Subject } from './rx';
import type { Observable } from 'rxjs';
import { REALTIME_PROTOCOL, SESSION_ENDED_CLOSE, tenantBase } from '@tongdai/contracts/lean';
import type { MonitorEvent, PbxCallEvent, RecordingStorageEvent } from '@tongdai/contracts';
import { getRuntimeConfig } from './config';
import { getOrCreateGlobalSingleton } from './global';
import { expireSession } from './http';
import { session } from './session';

interface Channel {
  subject: Subject<PbxCallEvent>;
  monitor: Subject<MonitorEvent>;
  recordingStorage: Subject<RecordingStorageEvent>;
  /** How many times the socket has opened: a screen holding live state rebuilds it when this moves. */
  opens: BehaviorSubject<number>;
  socket: WebSocket | null;
  timer: ReturnType<typeof setTimeout> | null;
  users: number;
}

const channel = getOrCreateGlobalSingleton<Channel>('pbxEvents', () => ({
  subject: new Subject<PbxCallEvent>(),
  monitor: new Subject<MonitorEvent>(),
  recordingStorage: new Subject<RecordingStorageEvent>(),
  opens: new BehaviorSubject(0),
  socket: null,
  timer: null,
  users: 0,
}));

/** The tenant's call events from the API (ringing, answered, ended), for any remote to read. */
export const pbxEvents$: Observable<PbxCallEvent> = channel.subject.asObservable();

/** The monitoring events on the same socket (queued, registration, activity; issue 14), filtered by the API per user. */
export const monitorEvents$: Observable<MonitorEvent> = channel.monitor.asObservable();

/** The recordings' storage full or back (issue 41), sent by the API only to the tenant's admins (setting.view). */
export const recordingStorageEvents$: Observable<RecordingStorageEvent> = channel.recordingStorage.asObservable();

/**
 * Counts the socket's openings (0 before the first). Events sent while it was closed are not
 * replayed, so a screen holding live state takes a fresh snapshot when this moves past its first value.
 */
export const realtimeOpens$: Observable<number> = channel.opens.asObservable();

/** ws(s)://…/t/{ma_dn}/events from the tenant API's base. */
export function pbxEventsUrl(): string {
  return `${tenantBase(getRuntimeConfig().apis.tenant, session.get().maDn ?? '').replace(/^http/, 'ws')}/events`;
}

const MAX_DELAY_MS = 30_000;

/**
 * Keeps the real-time channel open while someone needs it (the softphone does while the user is
 * logged in): the bearer goes as a second subprotocol, a closed socket reopens with backoff and
 * the current token. A socket the API closes because its session ended (SESSION_ENDED_CLOSE: the
 * account was locked, logged out elsewhere, its password changed) does not reopen: the browser's
 * session ends as on an HTTP 401 (ADR 0004). Returns the release function.
 */
export function connectPbxEvents(): () => void {
  channel.users++;
  if (channel.users === 1) open(1000);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--channel.users > 0) return;
    if (channel.timer) clearTimeout(channel.timer);
    channel.timer = null;
    const s = channel.socket;
    channel.socket = null;
    s?.close();
  };
}

function open(delay: number): void {
  channel.timer = null;
  const token = session.get().token;
  if (!channel.users || !token || typeof WebSocket === 'undefined') return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(pbxEventsUrl(), [REALTIME_PROTOCOL, token]);
  } catch {
    return;
  }
  channel.socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    channel.opens.next(channel.opens.value + 1);
  };
  ws.onmessage = (m) => {
    try {
      const e = JSON.parse(String(m.data)) as PbxCallEvent | MonitorEvent | RecordingStorageEvent;
      if (e?.kind === 'tongdai.pbx-call') channel.subject.next(e);
      else if (e?.kind === 'tongdai.monitor') channel.monitor.next(e);
      else if (e?.kind === 'tongdai.recording-storage') channel.recordingStorage.next(e);
    } catch {
      /* not ours */
    }
  };
  ws.onclose = (e) => {
    if (channel.socket !== ws) return;
    channel.socket = null;
    if (e.code === SESSION_ENDED_CLOSE) {
      expireSession(token);
      return;
    }
    const next = opened ? 1000 : Math.min(delay * 2, MAX_DELAY_MS);
    if (channel.users) channel.timer = setTimeout(() => open(next), opened ? 1000 : delay);
  };
}
