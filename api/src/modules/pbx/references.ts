import {
  DESTINATION_LABELS,
  PBX_MSG,
  displayForm,
  storedForm,
  type Destination,
  type FieldError,
  type PbxConfig,
} from '@tongdai/contracts';
import { ConflictError } from '../../http/errors';
import { PBX_API_MSG, invalid } from './pbx.errors';

/**
 * What points at what, as keys: 'ivr:3', 'group:2', 'ext:101', 'greeting:5', 'timegroup:1',
 * 'did:02873000001', 'moh:<class>'. The same description serves the write check (every key a
 * row points at exists) and the delete check (nothing points at the row being deleted).
 */
export interface Ref {
  field: string;
  key: string;
  /** Shown when the key does not exist. */
  message: string;
}

/** The key a destination points at; fw (an external number) points at nothing of ours. */
export function destinationKey(d: Destination): string | null {
  switch (d.type) {
    case 'fw':
      return null;
    case 'direct':
    case 'voicmail':
      return `ext:${d.target}`;
    case 'voicemaill':
      return `group:${d.target}`;
    default:
      return `${d.type}:${d.target}`;
  }
}

export const destRef = (field: string, d: Destination | null | undefined): Ref[] => {
  const key = d ? destinationKey(d) : null;
  return key ? [{ field, key, message: PBX_MSG.destinationMissing }] : [];
};
export const extRefs = (field: string, exts: string[]): Ref[] => exts.map((e) => ({ field, key: `ext:${e}`, message: PBX_MSG.extensionUnknown(e) }));
export const greetingRef = (field: string, id: number | null | undefined): Ref[] =>
  id ? [{ field, key: `greeting:${id}`, message: PBX_API_MSG.greetingMissing }] : [];
export const mohRef = (field: string, cls: string | undefined): Ref[] => (cls ? [{ field, key: `moh:${cls}`, message: PBX_API_MSG.mohMissing }] : []);
export const timeGroupRef = (field: string, id: number): Ref[] => [{ field, key: `timegroup:${id}`, message: PBX_API_MSG.timeGroupMissing }];
/** A DID in any written form points at the number stored as 84… (ADR 0016). */
export const didRef = (field: string, did: string): Ref[] => [{ field, key: `did:${storedForm(did)}`, message: PBX_MSG.didUnknown }];

/** One object of the configuration: what it is called in messages, its own keys, what it points at. */
interface Node {
  label: string;
  keys: string[];
  refs: Ref[];
}

const named = (type: keyof typeof DESTINATION_LABELS, name: string) => `${DESTINATION_LABELS[type]} "${name}"`;

/** References of each kind of object; the row shapes are the inputs plus ids, so inputs use them too. */
export const REFS = {
  inbound: (x: { did: string; destination: Destination }) => [...didRef('did', x.did), ...destRef('destination', x.destination)],
  ringGroup: (x: { extensions: string[]; destination: Destination | null }) => [...extRefs('extensions', x.extensions), ...destRef('destination', x.destination)],
  queue: (x: { agents: string[]; timeout_destination: Destination | null; join_greeting_id: number | null; moh_class: string }) => [
    ...extRefs('agents', x.agents),
    ...destRef('timeout_destination', x.timeout_destination),
    ...greetingRef('join_greeting_id', x.join_greeting_id),
    ...mohRef('moh_class', x.moh_class),
  ],
  ivr: (x: { greeting_id: number | null; entries: { destination: Destination }[]; timeout_destination: Destination | null; invalid_destination: Destination | null }) => [
    ...greetingRef('greeting_id', x.greeting_id),
    ...x.entries.flatMap((e, i) => destRef(`entries.${i}.destination`, e.destination)),
    ...destRef('timeout_destination', x.timeout_destination),
    ...destRef('invalid_destination', x.invalid_destination),
  ],
  notification: (x: { greeting_id: number; destination: Destination | null }) => [...greetingRef('greeting_id', x.greeting_id), ...destRef('destination', x.destination)],
  timeCondition: (x: { time_group_id: number; matched_destination: Destination; unmatched_destination: Destination }) => [
    ...timeGroupRef('time_group_id', x.time_group_id),
    ...destRef('matched_destination', x.matched_destination),
    ...destRef('unmatched_destination', x.unmatched_destination),
  ],
  lastCall: (x: { fallback_destination: Destination }) => destRef('fallback_destination', x.fallback_destination),
} satisfies Record<string, (x: never) => Ref[]>;

/** Every object of the tenant as a node of the reference graph. */
function nodesOf(c: PbxConfig): Node[] {
  return [
    ...c.extensions.map((e) => ({ label: `Máy nhánh "${e.extension}"`, keys: [`ext:${e.extension}`], refs: [] })),
    ...c.numbers.map((n) => ({ label: `Số điện thoại "${displayForm(n.number)}"`, keys: [`did:${n.number}`], refs: [] })),
    ...c.audio.map((a) =>
      a.kind === 'greeting'
        ? { label: `Lời chào "${a.name}"`, keys: [`greeting:${a.id}`], refs: [] }
        : { label: `Nhạc chờ "${a.name}"`, keys: a.moh_class ? [`moh:${a.moh_class}`] : [], refs: [] },
    ),
    ...c.timeGroups.map((g) => ({ label: `Nhóm thời gian "${g.name}"`, keys: [`timegroup:${g.id}`], refs: [] })),
    ...c.inbounds.map((r) => ({
      label: `Tuyến gọi vào "${r.caller_pattern ? `${displayForm(r.did)} / ${r.caller_pattern}` : displayForm(r.did)}"`,
      keys: [],
      refs: REFS.inbound(r),
    })),
    ...c.ringGroups.map((g) => ({ label: named('group', g.name), keys: [`group:${g.id}`], refs: REFS.ringGroup(g) })),
    ...c.queues.map((q) => ({ label: named('queue', q.name), keys: [`queue:${q.id}`], refs: REFS.queue(q) })),
    ...c.ivrs.map((i) => ({ label: named('ivr', i.name), keys: [`ivr:${i.id}`], refs: REFS.ivr(i) })),
    ...c.notifications.map((n) => ({ label: named('msg', n.name), keys: [`msg:${n.id}`], refs: REFS.notification(n) })),
    ...c.timeConditions.map((t) => ({ label: named('time', t.name), keys: [`time:${t.id}`], refs: REFS.timeCondition(t) })),
    ...c.lastCalls.map((l) => ({ label: named('lastcall', l.name), keys: [`lastcall:${l.id}`], refs: REFS.lastCall(l) })),
  ];
}

/** 400 with one detail per field naming what does not exist in the tenant. */
export function checkRefs(config: PbxConfig, refs: Ref[]): void {
  const existing = new Set(nodesOf(config).flatMap((n) => n.keys));
  const details = new Map<string, FieldError>();
  for (const r of refs) if (!existing.has(r.key) && !details.has(r.field)) details.set(r.field, { field: r.field, message: r.message });
  if (details.size) throw invalid([...details.values()]);
}

/** The label of one other object pointing at any of `keys` (its own self-references do not count), or null. */
export function firstUser(config: PbxConfig, keys: string[]): string | null {
  const wanted = new Set(keys);
  const user = nodesOf(config).find((n) => !n.keys.some((k) => wanted.has(k)) && n.refs.some((r) => wanted.has(r.key)));
  return user?.label ?? null;
}

/** 409 "Đang được dùng bởi … , không thể xoá" when something points at `keys`. */
export function refuseIfUsed(config: PbxConfig, keys: string[]): void {
  const user = firstUser(config, keys);
  if (user) throw new ConflictError(PBX_MSG.inUse(user));
}
