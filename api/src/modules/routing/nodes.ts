import type { Destination } from '@tongdai/contracts';
import type { ConfigIndex } from './config-index';
import type { RouteNode } from './types';

/** Display name of an extension as the destinations list shows it: "101 - Nguyễn Văn A". */
export function extensionName(idx: ConfigIndex, extension: string): string {
  const e = idx.extensions.get(extension);
  return e?.display_name ? `${extension} - ${e.display_name}` : extension;
}

/** The route node a destination names, or null when its object no longer exists. */
export function nodeOf(idx: ConfigIndex, dest: Destination): RouteNode | null {
  const id = String(dest.target);
  const named = (row: { name: string } | undefined): RouteNode | null => (row ? { type: dest.type, id, name: row.name } : null);
  switch (dest.type) {
    case 'ivr':
      return named(idx.ivrs.get(id));
    case 'group':
    case 'voicemaill':
      return named(idx.groups.get(id));
    case 'msg':
      return named(idx.notifications.get(id));
    case 'time':
      return named(idx.timeConditions.get(id));
    case 'queue':
      return named(idx.queues.get(id));
    case 'lastcall':
      return named(idx.lastCalls.get(id));
    case 'direct':
    case 'voicmail':
      return idx.extensions.has(id) ? { type: dest.type, id, name: extensionName(idx, id) } : null;
    case 'fw':
      return { type: 'fw', id, name: id };
    default:
      return null;
  }
}
