import type {
  AudioFile,
  BlockedNumber,
  Destination,
  DestinationValue,
  Inbound,
  Ivr,
  LastCall,
  Notification,
  OutboundRule,
  PbxConfig,
  PbxNumber,
  Queue,
  RingGroup,
  SwitchboardRoute,
  TimeCondition,
  TimeGroup,
  TimeRange,
} from '@tongdai/contracts';

/**
 * Typed builders of PBX configurations and live state for the routing engine's tests and the bench.
 * Configurations are contracts types; the call and the live state are plain data that the engine's
 * own types (api routing/types.ts) check where they are passed in, so this package never imports
 * from the API.
 */

type ConfigExtension = PbxConfig['extensions'][number];
type AgentStats = { calls: number; lastCallAt: Date | null };

const stamp = { created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' };

export const dest = (type: DestinationValue, target: string | number): Destination => ({ type, target: String(target) });

export const extension = (ext: string, more: Partial<ConfigExtension> = {}): ConfigExtension => ({ extension: ext, display_name: `NV ${ext}`, user_id: null, ...more });
export const number = (id: number, num: string, more: Partial<PbxNumber> = {}): PbxNumber => ({ id, ...stamp, number: num, description: '', active: true, ...more });
export const inbound = (id: number, did: string, destination: Destination, caller_pattern = '', more: Partial<Inbound> = {}): Inbound => ({
  id,
  ...stamp,
  did,
  caller_pattern,
  destination,
  description: '',
  destination_name: '',
  csat: false,
  ...more,
});
export const ringGroup = (id: number, extensions: string[], more: Partial<RingGroup> = {}): RingGroup => ({
  id,
  ...stamp,
  name: `Nhóm ${id}`,
  extensions,
  strategy: 'ringall',
  ring_time: 20,
  destination: null,
  description: '',
  ...more,
});
export const queue = (id: number, agents: string[], more: Partial<Queue> = {}): Queue => ({
  id,
  ...stamp,
  name: `Hàng đợi ${id}`,
  agents,
  strategy: 'ringall',
  agent_timeout: 15,
  max_wait: 300,
  timeout_destination: null,
  join_greeting_id: null,
  moh_class: 'default',
  description: '',
  sla_seconds: 20,
  amber_wait_seconds: 30,
  red_wait_seconds: 60,
  recording_mode: null,
  csat: false,
  ...more,
});
export const ivr = (id: number, more: Partial<Ivr> = {}): Ivr => ({
  id,
  ...stamp,
  name: `Menu ${id}`,
  greeting_id: null,
  entries: [],
  timeout: 5,
  invalid_retries: 3,
  timeout_destination: null,
  invalid_destination: null,
  direct_dial: false,
  description: '',
  ...more,
});
export const notification = (id: number, greeting_id: number, destination: Destination | null = null, more: Partial<Notification> = {}): Notification => ({
  id,
  ...stamp,
  name: `Thông báo ${id}`,
  greeting_id,
  destination,
  description: '',
  ...more,
});
let rangeId = 0;
export const range = (r: Partial<TimeRange> = {}): TimeRange => ({
  id: ++rangeId,
  time_start: '',
  time_end: '',
  dow_start: null,
  dow_end: null,
  dom_start: null,
  dom_end: null,
  month_start: null,
  month_end: null,
  ...r,
});
export const timeGroup = (id: number, ranges: TimeRange[], more: Partial<TimeGroup> = {}): TimeGroup => ({ id, ...stamp, name: `Giờ ${id}`, description: '', holiday_mode: 'none', ranges, ...more });
/** Office hours: Monday–Friday 08:00–17:00. */
export const officeHours = (id: number) => timeGroup(id, [range({ time_start: '08:00', time_end: '17:00', dow_start: 1, dow_end: 5 })], { name: 'Giờ hành chính' });
export const timeCondition = (id: number, time_group_id: number, matched: Destination, unmatched: Destination, more: Partial<TimeCondition> = {}): TimeCondition => ({
  id,
  ...stamp,
  name: `Điều kiện ${id}`,
  time_group_id,
  matched_destination: matched,
  unmatched_destination: unmatched,
  override: 'none',
  timezone: 'Asia/Ho_Chi_Minh',
  description: '',
  override_until: null,
  override_set_at: null,
  ...more,
});
export const lastCall = (id: number, fallback: Destination, more: Partial<LastCall> = {}): LastCall => ({
  id,
  ...stamp,
  name: `Gọi lại ${id}`,
  days: 7,
  ring_time: 20,
  fallback_destination: fallback,
  description: '',
  ...more,
});
export const outboundRule = (id: number, pattern: string, more: Partial<OutboundRule> = {}): OutboundRule => ({
  id,
  ...stamp,
  name: `Tuyến ${id}`,
  pattern,
  strip: 0,
  prepend: '',
  trunk: 'viettel',
  switchboard_ids: [1],
  caller_id_mode: 'fixed',
  caller_id: '',
  priority: 100,
  allow_international: false,
  allow_premium: false,
  description: '',
  ...more,
});
/** A switchboard as the call path sees it (issue 15): `hotlines` in stored form. */
export const switchboardRoute = (id: number, more: Partial<SwitchboardRoute> = {}): SwitchboardRoute => ({
  id,
  name: `Tổng đài ${id}`,
  carrier: 'other',
  host: `10.0.0.${id}`,
  port: 5060,
  transport: 'udp',
  max_channels: 30,
  enabled: true,
  register: true,
  hotlines: [],
  ...more,
});
export const blocked = (id: number, direction: 'in' | 'out', num: string, match: 'exact' | 'prefix' = 'exact'): BlockedNumber => ({ id, ...stamp, direction, number: num, match, note: '' });
export const audio = (id: number, kind: 'greeting' | 'moh' = 'greeting'): AudioFile => ({
  id,
  ...stamp,
  kind,
  name: `Âm thanh ${id}`,
  moh_class: '',
  file_name: `a${id}.wav`,
  mime: 'audio/wav',
  size_bytes: 1000,
  duration_seconds: 3,
});

export function pbxConfig(parts: Partial<PbxConfig> = {}): PbxConfig {
  return {
    tenantId: 1,
    maDn: 'demo',
    timezone: 'Asia/Ho_Chi_Minh',
    extensions: [],
    numbers: [],
    inbounds: [],
    ringGroups: [],
    queues: [],
    ivrs: [],
    notifications: [],
    timeGroups: [],
    timeConditions: [],
    lastCalls: [],
    outboundRules: [],
    blocked: [],
    audio: [],
    ...parts,
  };
}

export interface LiveInput {
  registered?: string[];
  busy?: string[];
  last?: Record<string, { extension: string; at: Date }>;
  /** Queue id → extension → its statistics in that queue. */
  stats?: Record<number, Record<string, AgentStats>>;
  /** memoryKey → the extension that answered last. */
  memory?: Record<string, string>;
  random?: () => number;
}
export function liveState(p: LiveInput = {}) {
  return {
    registered: new Set(p.registered ?? []),
    busy: new Set(p.busy ?? []),
    lastAgent: (caller: string) => p.last?.[caller] ?? null,
    queueStats: new Map(Object.entries(p.stats ?? {}).map(([queueId, byAgent]) => [Number(queueId), new Map(Object.entries(byAgent))])),
    memory: new Map(Object.entries(p.memory ?? {})),
    random: p.random,
  };
}

/** A seeded random source (mulberry32) so random strategies are reproducible. */
export { seeded } from '@tongdai/contracts';

/** Vietnam wall clock → instant: vn('2025-03-07 16:59') is 09:59 UTC. */
export const vn = (wall: string): Date => new Date(`${wall.replace(' ', 'T')}:00+07:00`);

export const inboundCall = (from: string, to: string, at: Date = vn('2025-03-05 10:00')) => ({ from, to, direction: 'inbound' as const, at });
export const extensionCall = (fromExtension: string, to: string, at: Date = vn('2025-03-05 10:00')) => ({ from: fromExtension, fromExtension, to, direction: 'internal' as const, at });
