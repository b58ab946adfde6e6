import { nationalForm, numberForms, type BlockDirection, type PbxConfig, type SwitchboardRoute } from '@tongdai/contracts';
import { compilePattern, type CompiledPattern } from './numbers';

/**
 * Lookup tables built once per configuration snapshot (WeakMap keyed by the config object), so a
 * plan is a handful of map reads. The API must treat a PbxConfig as immutable once planned with.
 */

export type ConfigExtension = PbxConfig['extensions'][number];
/** The row type of one of the configuration's lists. */
type Row<K extends keyof PbxConfig> = PbxConfig[K] extends (infer T)[] ? T : never;

export interface InboundCandidate {
  route: Row<'inbounds'>;
  /** null: the route has no caller pattern (matches every caller, least specific). */
  pattern: CompiledPattern | null;
}

export interface BlockList {
  exact: Set<string>;
  prefixes: string[];
}

export interface ConfigIndex {
  extensions: Map<string, ConfigExtension>;
  numbers: Map<string, Row<'numbers'>>;
  /** National DID → its routes, most specific caller pattern first, the empty pattern last. */
  inbound: Map<string, InboundCandidate[]>;
  groups: Map<string, Row<'ringGroups'>>;
  queues: Map<string, Row<'queues'>>;
  ivrs: Map<string, Row<'ivrs'>>;
  notifications: Map<string, Row<'notifications'>>;
  timeGroups: Map<string, Row<'timeGroups'>>;
  timeConditions: Map<string, Row<'timeConditions'>>;
  lastCalls: Map<string, Row<'lastCalls'>>;
  audio: Map<number, Row<'audio'>>;
  /** Outbound rules by priority (lower first), then id. */
  outbound: { rule: Row<'outboundRules'>; pattern: CompiledPattern }[];
  blocked: Record<BlockDirection, BlockList>;
  /** The tenant's switchboards by id (issue 15); switchboardsKnown is false when the snapshot has none listed (older loaders, tests). */
  switchboards: Map<number, SwitchboardRoute>;
  switchboardsKnown: boolean;
}

const byId = <T extends { id: number }>(rows: T[] | undefined) => new Map((rows ?? []).map((r) => [String(r.id), r]));

function blockList(config: PbxConfig, direction: BlockDirection): BlockList {
  const list: BlockList = { exact: new Set(), prefixes: [] };
  for (const b of config.blocked ?? []) {
    if (b.direction !== direction) continue;
    if (b.match === 'prefix') list.prefixes.push(...numberForms(b.number));
    else for (const n of numberForms(b.number)) list.exact.add(n);
  }
  return list;
}

/** Builds the tables afresh (save-time checks run on configurations being edited). */
export function buildIndex(config: PbxConfig): ConfigIndex {
  const inbound = new Map<string, InboundCandidate[]>();
  for (const route of config.inbounds ?? []) {
    const key = nationalForm(route.did);
    const list = inbound.get(key) ?? [];
    list.push({ route, pattern: route.caller_pattern ? compilePattern(route.caller_pattern) : null });
    inbound.set(key, list);
  }
  for (const list of inbound.values()) list.sort((a, b) => (b.pattern?.specificity ?? -1) - (a.pattern?.specificity ?? -1) || a.route.id - b.route.id);
  return {
    extensions: new Map((config.extensions ?? []).map((e) => [e.extension, e])),
    numbers: new Map((config.numbers ?? []).map((n) => [nationalForm(n.number), n])),
    inbound,
    groups: byId(config.ringGroups),
    queues: byId(config.queues),
    ivrs: byId(config.ivrs),
    notifications: byId(config.notifications),
    timeGroups: byId(config.timeGroups),
    timeConditions: byId(config.timeConditions),
    lastCalls: byId(config.lastCalls),
    audio: new Map((config.audio ?? []).map((a) => [a.id, a])),
    outbound: [...(config.outboundRules ?? [])].sort((a, b) => a.priority - b.priority || a.id - b.id).map((rule) => ({ rule, pattern: compilePattern(rule.pattern) })),
    blocked: { in: blockList(config, 'in'), out: blockList(config, 'out') },
    switchboards: new Map((config.switchboards ?? []).map((s) => [s.id, s])),
    switchboardsKnown: config.switchboards !== undefined,
  };
}

const cache = new WeakMap<PbxConfig, ConfigIndex>();
export function indexOf(config: PbxConfig): ConfigIndex {
  let idx = cache.get(config);
  if (!idx) {
    idx = buildIndex(config);
    cache.set(config, idx);
  }
  return idx;
}

/** True when `number` is on the tenant's blocked list for that direction (exact or by prefix). */
export function isBlocked(idx: ConfigIndex, direction: BlockDirection, number: string): boolean {
  const list = idx.blocked[direction];
  const forms = numberForms(number);
  return forms.some((n) => list.exact.has(n) || list.prefixes.some((p) => n.startsWith(p)));
}
