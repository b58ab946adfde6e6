import { DEFAULT_RING_TIME, groupMailbox, numberForms, type Destination, type DestinationValue, type PbxConfig } from '@tongdai/contracts';
import { indexOf, type ConfigIndex } from './config-index';
import { ROUTING_MSG } from './messages';
import { describeLoop } from './loops';
import { nodeOf } from './nodes';
import { forwardStep, matchOutbound } from './outbound';
import { agentState, memoryKey, queueOrder, ringGroupSteps } from './strategies';
import { evaluateTimeCondition } from './time';
import type { CallInput, LiveState, PlanStep, RejectCode, RejectReason, RouteNode, RoutingPlan } from './types';

/** Automatic hops (destination → destination) one expansion follows before giving up with 'loop'. */
export const MAX_HOPS = 32;
/** Seconds a direct call rings an extension that sets no ring_time. */
export const DIRECT_RING_SECONDS = DEFAULT_RING_TIME;
const DAY = 86_400_000;

export interface Expansion {
  idx: ConfigIndex;
  config: PbxConfig;
  call: CallInput;
  state: LiveState;
  steps: PlanStep[];
  route: RouteNode[];
  interactive: boolean;
}

export function newExpansion(config: PbxConfig, call: CallInput, state: LiveState): Expansion {
  return { idx: indexOf(config), config, call, state, steps: [], route: [], interactive: false };
}

export function toPlan(x: Expansion, direction: CallInput['direction'] = x.call.direction): RoutingPlan {
  return { direction, from: x.call.from, to: x.call.to, did: direction === 'inbound' ? x.call.to : null, steps: x.steps, route: x.route, interactive: x.interactive };
}

export function reject(x: Expansion, code: RejectCode, reason: RejectReason, detail = '', source?: RouteNode): void {
  x.steps.push({ kind: 'reject', code, reason, message: ROUTING_MSG[reason](detail), ...(source ? { source } : {}) });
}

const audioOrNull = (x: Expansion, id: number | null | undefined) => (id != null && x.idx.audio.has(Number(id)) ? Number(id) : null);
const available = (x: Expansion, ext: string) => x.idx.extensions.has(ext) && agentState(x.state, ext) === 'available';
const ringOne = (extension: string, timeout: number, source: RouteNode): PlanStep => ({ kind: 'ring', mode: 'parallel', targets: [{ extension, timeout }], timeout, source });

/** A direct call to an extension: ring it, else (or after no answer) its voicemail, else 480 offline / 486 busy. */
function direct(x: Expansion, ext: string, source: RouteNode): void {
  const e = x.idx.extensions.get(ext)!;
  const mailbox = () => x.steps.push({ kind: 'voicemail', mailbox: ext, source });
  const st = agentState(x.state, ext);
  if (st === 'available') {
    x.steps.push(ringOne(ext, e.ring_time ?? DIRECT_RING_SECONDS, source));
    if (e.voicemail) mailbox();
    else x.steps.push({ kind: 'hangup', source });
  } else if (e.voicemail) mailbox();
  else if (st === 'busy') reject(x, 486, 'busy', ext, source);
  else reject(x, 480, 'offline', ext, source);
}

function forward(x: Expansion, number: string, source: RouteNode): void {
  const m = matchOutbound(x.idx, number);
  if ('kind' in m) x.steps.push({ ...m, source });
  else x.steps.push(forwardStep(m, number, source));
}

function lastAgent(x: Expansion): { extension: string; at: Date } | null {
  for (const n of numberForms(x.call.from)) {
    const la = x.state.lastAgent(n);
    if (la) return la;
  }
  return null;
}

/** The first cycle in the route, for the 'loop' message. */
function loopPath(route: RouteNode[]): string {
  const seen = new Map<string, number>();
  for (let i = 0; i < route.length; i++) {
    const k = `${route[i].type}:${route[i].id}`;
    const first = seen.get(k);
    if (first !== undefined) return describeLoop({ nodes: route.slice(first, i).map(({ type, id, name }) => ({ type: type as DestinationValue, id, name })) });
    seen.set(k, i);
  }
  return route.slice(-4).map((n) => n.name).join(' → ');
}

/**
 * Appends the steps of `start` and what follows it automatically (time conditions, no-answer
 * destinations, announcements) until a leaf, an interactive step (IVR, queue) or an empty
 * destination (hangup). Deleted objects end with 404, runaway chains with 482 'loop'.
 */
export function follow(x: Expansion, start: Destination | null | undefined): void {
  let dest = start;
  for (let hops = 0; ; hops++) {
    if (!dest) {
      x.steps.push({ kind: 'hangup', ...(x.route.length ? { source: x.route[x.route.length - 1] } : {}) });
      return;
    }
    if (hops >= MAX_HOPS) {
      reject(x, 482, 'loop', loopPath(x.route));
      return;
    }
    const node = nodeOf(x.idx, dest);
    if (!node) {
      if (dest.type === 'direct' || dest.type === 'voicmail') reject(x, 404, 'unknown_extension', String(dest.target));
      else reject(x, 404, 'missing_destination');
      return;
    }
    x.route.push(node);
    const id = node.id;
    switch (dest.type) {
      case 'time': {
        const tc = x.idx.timeConditions.get(id)!;
        const r = evaluateTimeCondition(tc, x.idx.timeGroups.get(String(tc.time_group_id)), x.call.at, x.config.timezone, x.config.holidays);
        node.branch = r.matched ? 'matched' : 'unmatched';
        dest = r.matched ? tc.matched_destination : tc.unmatched_destination;
        continue;
      }
      case 'group': {
        const g = x.idx.groups.get(id)!;
        x.steps.push(...ringGroupSteps(g, g.extensions.filter((e) => available(x, e)), node, x.state));
        dest = g.destination;
        continue;
      }
      case 'msg': {
        const n = x.idx.notifications.get(id)!;
        const audio = audioOrNull(x, n.greeting_id);
        if (audio !== null) x.steps.push({ kind: 'play', audioIds: [audio], source: node });
        dest = n.destination;
        continue;
      }
      case 'lastcall': {
        const lc = x.idx.lastCalls.get(id)!;
        const la = lastAgent(x);
        const age = la ? x.call.at.getTime() - la.at.getTime() : Infinity;
        if (la && age >= 0 && age <= lc.days * DAY && available(x, la.extension)) {
          x.steps.push(ringOne(la.extension, lc.ring_time, node));
        }
        dest = lc.fallback_destination;
        continue;
      }
      case 'queue': {
        const q = x.idx.queues.get(id)!;
        const agents = queueOrder(q, x.state).map((extension) => ({ extension, state: x.idx.extensions.has(extension) ? agentState(x.state, extension) : ('offline' as const) }));
        // Nobody logged in: waiting is pointless, go straight to the timeout destination.
        if (!agents.some((a) => a.state !== 'offline')) {
          dest = q.timeout_destination;
          continue;
        }
        x.steps.push({
          kind: 'queue',
          queueId: q.id,
          strategy: q.strategy,
          ring: q.strategy === 'ringall' ? 'parallel' : 'serial',
          agents,
          agent_timeout: q.agent_timeout,
          max_wait: q.max_wait,
          moh_class: q.moh_class ?? '',
          join_greeting_id: audioOrNull(x, q.join_greeting_id),
          memoryKey: memoryKey('queue', q.id),
          timeout_destination: q.timeout_destination ?? null,
          source: node,
        });
        x.interactive = true;
        return;
      }
      case 'ivr': {
        const ivr = x.idx.ivrs.get(id)!;
        x.steps.push({
          kind: 'ivr',
          ivrId: ivr.id,
          greetingId: audioOrNull(x, ivr.greeting_id),
          timeout: ivr.timeout,
          retries: ivr.invalid_retries,
          entries: ivr.entries.map((e) => ({ digit: e.digit, destination: e.destination })),
          direct_dial: ivr.direct_dial,
          timeout_destination: ivr.timeout_destination ?? null,
          invalid_destination: ivr.invalid_destination ?? null,
          source: node,
        });
        x.interactive = true;
        return;
      }
      case 'direct':
        direct(x, id, node);
        return;
      case 'voicmail':
        x.steps.push({ kind: 'voicemail', mailbox: id, source: node });
        return;
      case 'voicemaill':
        x.steps.push({ kind: 'voicemail', mailbox: groupMailbox(Number(id)), source: node });
        return;
      case 'fw':
        forward(x, id, node);
        return;
      default:
        reject(x, 404, 'missing_destination');
        return;
    }
  }
}

/** The plan from one destination on: what the media worker calls after an IVR digit, an IVR/queue timeout, a direct-dialled extension. */
export function resolveDestination(config: PbxConfig, dest: Destination | null, call: CallInput, state: LiveState): RoutingPlan {
  const x = newExpansion(config, call, state);
  follow(x, dest);
  return toPlan(x);
}
