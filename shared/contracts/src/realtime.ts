/**
 * Call events of the tenant's PBX, pushed by the API over its real-time channel (WebSocket
 * GET /t/{ma_dn}/events, subprotocol REALTIME_PROTOCOL plus the bearer token as a second
 * subprotocol): which extensions ring, who answered, how it ended. The softphone republishes them
 * on the platform bus (pbxEvents$) for any remote (monitoring, reports).
 */
export const REALTIME_PROTOCOL = 'tongdai.v1';

interface PbxCallEventBase {
  kind: 'tongdai.pbx-call';
  version: 1;
  callId: string;
  at: number;
}

export type PbxCallEvent =
  | (PbxCallEventBase & { type: 'ringing'; caller: string; callee: string; extensions: string[] })
  | (PbxCallEventBase & { type: 'answered'; extension: string | null })
  | (PbxCallEventBase & { type: 'ended'; disposition: 'ANSWERED' | 'NO ANSWER' | 'BUSY' | 'FAILED' | 'BLOCKED'; extension: string | null });
