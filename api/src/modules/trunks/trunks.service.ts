/**
 * Carrier trunks on the call path (issue 15): the trunks module's face for other modules.
 * Channels in use per switchboard, counted from the calls Kamailio relays through them (the call
 * path opens a channel when a call is relayed to or accepted from a switchboard and closes it when
 * the call ends or fails). Per process; with several API instances each counts the calls it planned.
 */
const open = new Map<number, Map<number, number>>();

export function channelOpened(tenantId: number, switchboardId: number): void {
  const t = open.get(tenantId) ?? new Map<number, number>();
  t.set(switchboardId, (t.get(switchboardId) ?? 0) + 1);
  open.set(tenantId, t);
}

export function channelClosed(tenantId: number, switchboardId: number): void {
  const t = open.get(tenantId);
  const n = t?.get(switchboardId) ?? 0;
  if (!t || n <= 1) t?.delete(switchboardId);
  else t.set(switchboardId, n - 1);
}

/** Switchboard id → calls on it now, for one tenant (absent = 0). */
export function channelsInUse(tenantId: number): ReadonlyMap<number, number> {
  return open.get(tenantId) ?? new Map();
}

const bound = new Map<string, { tenantId: number; switchboardId: number }>();

/** A call now uses a switchboard (relayed to it, or accepted from it); a failover moves its channel. */
export function callOnSwitchboard(callId: string, tenantId: number, switchboardId: number): void {
  const prev = bound.get(callId);
  if (prev?.switchboardId === switchboardId) return;
  if (prev) channelClosed(prev.tenantId, prev.switchboardId);
  channelOpened(tenantId, switchboardId);
  bound.set(callId, { tenantId, switchboardId });
}

/** The call ended or failed: its channel is free. */
export function callOffSwitchboard(callId: string): void {
  const prev = bound.get(callId);
  if (!prev) return;
  bound.delete(callId);
  channelClosed(prev.tenantId, prev.switchboardId);
}

export { SwitchboardDirectory, hostPort, registrationUuid, type CallSwitchboard } from './switchboard-directory';
export { registerTrunkRoutes } from './trunks.routes';
export { SwitchboardHosts, settingsFromEnv, systemResolver, type HostCheck, type HostResolver } from './switchboard-hosts';
