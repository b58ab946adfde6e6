import type { DestinationsMap, PbxConfig } from '@tongdai/contracts';

const byId = (rows: { id: number; name: string }[]) => Object.fromEntries(rows.map((r) => [String(r.id), r.name]));

/**
 * GET /partner/destinations (SPEC §7): type → { target → display name } over the tenant's real
 * objects. Extensions read "101 - <display name>"; fw has no entries (the number is typed).
 */
export function destinationsMap(c: PbxConfig): DestinationsMap {
  const extensions = Object.fromEntries(c.extensions.map((e) => [e.extension, `${e.extension} - ${e.display_name}`]));
  return {
    ivr: byId(c.ivrs),
    direct: extensions,
    group: byId(c.ringGroups),
    msg: byId(c.notifications),
    time: byId(c.timeConditions),
    voicmail: extensions,
    queue: byId(c.queues),
    lastcall: byId(c.lastCalls),
    voicemaill: byId(c.ringGroups),
  };
}
