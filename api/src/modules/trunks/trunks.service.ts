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
