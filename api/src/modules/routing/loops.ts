import { DESTINATION_LABELS, type Destination, type DestinationValue, type PbxConfig } from '@tongdai/contracts';
import { buildIndex, type ConfigIndex } from './config-index';
import { nodeOf } from './nodes';

/**
 * Loops made of automatic edges (no caller input): time condition → matched / unmatched, ring
 * group → no-answer destination, queue → timeout destination, notification → destination,
 * last call → fallback, IVR → timeout / invalid destination. IVR digits are caller choices and
 * never make a loop; direct, fw, voicmail and voicemaill are leaves.
 */

export interface LoopNode {
  type: DestinationValue;
  id: string;
  name: string;
}
export interface Loop {
  /** The objects of the cycle in order; the last one leads back to the first. */
  nodes: LoopNode[];
}

/** The destinations a call leaves an object for without caller input. */
export function automaticEdges(idx: ConfigIndex, type: DestinationValue, id: string): (Destination | null | undefined)[] {
  switch (type) {
    case 'time': {
      const tc = idx.timeConditions.get(id);
      return tc ? [tc.matched_destination, tc.unmatched_destination] : [];
    }
    case 'group':
      return [idx.groups.get(id)?.destination];
    case 'queue':
      return [idx.queues.get(id)?.timeout_destination];
    case 'msg':
      return [idx.notifications.get(id)?.destination];
    case 'lastcall':
      return [idx.lastCalls.get(id)?.fallback_destination];
    case 'ivr': {
      const ivr = idx.ivrs.get(id);
      return ivr ? [ivr.timeout_destination, ivr.invalid_destination] : [];
    }
    default:
      return [];
  }
}

const key = (type: string, id: string) => `${type}:${id}`;

/**
 * The first cycle of automatic edges, or null. With `start`, the search begins at that object and
 * a cycle through it is reported starting with it (the API passes the object being saved).
 */
export function findLoop(config: PbxConfig, start?: { type: DestinationValue; id: string | number }): Loop | null {
  // Not the cached index: the API may call this on a configuration object it is still editing.
  const idx = buildIndex(config);
  const roots: [DestinationValue, Iterable<string>][] = [
    ['ivr', idx.ivrs.keys()],
    ['time', idx.timeConditions.keys()],
    ['group', idx.groups.keys()],
    ['queue', idx.queues.keys()],
    ['msg', idx.notifications.keys()],
    ['lastcall', idx.lastCalls.keys()],
  ];
  const state = new Map<string, 1 | 2>(); // 1 on the current path, 2 done
  const path: LoopNode[] = [];

  const visit = (type: DestinationValue, id: string): LoopNode[] | null => {
    const k = key(type, id);
    const s = state.get(k);
    if (s === 2) return null;
    if (s === 1) return path.slice(path.findIndex((n) => key(n.type, n.id) === k));
    const node = nodeOf(idx, { type, target: id });
    if (!node) return null;
    state.set(k, 1);
    path.push({ type, id, name: node.name });
    for (const dest of automaticEdges(idx, type, id)) {
      if (!dest) continue;
      const found = visit(dest.type, String(dest.target));
      if (found) return found;
    }
    path.pop();
    state.set(k, 2);
    return null;
  };

  const ordered: [DestinationValue, string][] = start ? [[start.type, String(start.id)]] : [];
  for (const [type, ids] of roots) for (const id of [...ids].sort((a, b) => Number(a) - Number(b))) ordered.push([type, id]);
  for (const [type, id] of ordered) {
    const cycle = visit(type, id);
    if (!cycle) continue;
    const at = start ? cycle.findIndex((n) => n.type === start.type && n.id === String(start.id)) : -1;
    return { nodes: at > 0 ? [...cycle.slice(at), ...cycle.slice(0, at)] : cycle };
  }
  return null;
}

/** 'IVR "Menu chính" → Điều kiện thời gian "Giờ hành chính" → IVR "Menu chính"' (for PBX_MSG.loop). */
export function describeLoop(loop: Loop): string {
  const label = (n: LoopNode) => `${DESTINATION_LABELS[n.type]} "${n.name}"`;
  return [...loop.nodes, loop.nodes[0]].filter(Boolean).map(label).join(' → ');
}
