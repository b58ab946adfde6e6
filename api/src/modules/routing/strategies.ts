import type { Queue, RingGroup } from '@tongdai/contracts';
import type { AgentState, LiveState, RingStep, RingTarget, RouteNode } from './types';

/** Key of LiveState.memory for a queue or ring group. */
export const memoryKey = (type: 'queue' | 'group', id: number | string): string => `${type}:${id}`;

export const agentState = (state: LiveState, extension: string): AgentState =>
  !state.registered.has(extension) ? 'offline' : state.busy.has(extension) ? 'busy' : 'available';

function shuffled<T>(xs: T[], random: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Ring steps of a ring group over its available members (FreePBX semantics, ring_time per step):
 * ringall → one parallel step; hunt → one serial step in list order; random → one serial step in
 * random order; memoryhunt → parallel steps ringing the 1st, then 1st+2nd, then 1st+2nd+3rd …
 */
export function ringGroupSteps(group: RingGroup, available: string[], source: RouteNode, state: LiveState): RingStep[] {
  if (!available.length) return [];
  const t = group.ring_time;
  const targets = (exts: string[]): RingTarget[] => exts.map((extension) => ({ extension, timeout: t }));
  switch (group.strategy) {
    case 'hunt':
    case 'random': {
      const order = group.strategy === 'random' ? shuffled(available, state.random ?? Math.random) : available;
      return [{ kind: 'ring', mode: 'serial', targets: targets(order), timeout: t * order.length, source }];
    }
    case 'memoryhunt':
      return available.map((_, i) => ({ kind: 'ring', mode: 'parallel', targets: targets(available.slice(0, i + 1)), timeout: t, source }));
    default:
      return [{ kind: 'ring', mode: 'parallel', targets: targets(available), timeout: t, source }];
  }
}

const time = (d: Date | null | undefined) => (d ? d.getTime() : -Infinity);

/**
 * Agents of a queue in the order its strategy rings them (Asterisk app_queue semantics):
 * ringall / linear → list order; leastrecent → longest since their last call first (never first);
 * fewestcalls → fewest calls first; rrmemory → the one after the agent who answered last; random.
 * Ties keep the list order.
 */
export function queueOrder(queue: Queue, state: LiveState): string[] {
  const agents = queue.agents;
  const stats = state.queueStats.get(queue.id);
  switch (queue.strategy) {
    case 'leastrecent':
      return agents.map((a, i) => ({ a, i, k: time(stats?.get(a)?.lastCallAt) })).sort((x, y) => x.k - y.k || x.i - y.i).map((x) => x.a);
    case 'fewestcalls':
      return agents.map((a, i) => ({ a, i, k: stats?.get(a)?.calls ?? 0 })).sort((x, y) => x.k - y.k || x.i - y.i).map((x) => x.a);
    case 'rrmemory': {
      // After the agent who answered last; from the top when they are no longer in the queue.
      const last = agents.indexOf(state.memory.get(memoryKey('queue', queue.id)) ?? '');
      const start = last < 0 ? 0 : (last + 1) % agents.length;
      return [...agents.slice(start), ...agents.slice(0, start)];
    }
    case 'random':
      return shuffled(agents, state.random ?? Math.random);
    default:
      return [...agents];
  }
}
