import type { Disposition } from './reports';
/**
 * Call events of the tenant's PBX, pushed by the API over its real-time channel (WebSocket
 * GET /t/{ma_dn}/events, subprotocol REALTIME_PROTOCOL plus the bearer token as a second
 * subprotocol): which extensions ring, who answered, how it ended. The softphone republishes them
 * on the platform bus (pbxEvents$) for any remote (monitoring, reports).
 */
export const REALTIME_PROTOCOL = 'tongdai.v1';

/**
 * WebSocket close code when the socket's session has ended (logout, lock, password change; 4000–4999
 * are the application's own). The browser ends its session on it, as on an HTTP 401 (ADR 0004).
 */
export const SESSION_ENDED_CLOSE = 4401;

interface PbxCallEventBase {
  kind: 'tongdai.pbx-call';
  version: 1;
  callId: string;
  at: number;
  /**
   * The event's position on the tenant's channel (1, 2, 3… in the order the channel delivers them;
   * a viewer who may not see them all sees gaps). The live wall compares it with the snapshot's
   * `seq` to tell the events the snapshot already includes from the newer ones. Absent when the
   * channel could not number it (Redis away, issue 41): such an event is applied again, harmlessly.
   */
  seq?: number;
}

export type PbxCallEvent =
  | (PbxCallEventBase & { type: 'ringing'; caller: string; callee: string; extensions: string[] })
  | (PbxCallEventBase & { type: 'answered'; extension: string | null })
  | (PbxCallEventBase & { type: 'ended'; disposition: Disposition; extension: string | null });
