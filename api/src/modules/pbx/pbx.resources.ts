import {
  AudioMetaInputSchema,
  BlockedNumberInputSchema,
  InboundInputSchema,
  IvrInputSchema,
  LastCallInputSchema,
  NotificationInputSchema,
  OutboundRuleInputSchema,
  PBX_MSG,
  PBX_RESOURCES,
  PERM,
  PbxNumberInputSchema,
  QueueInputSchema,
  RingGroupInputSchema,
  TimeConditionInputSchema,
  TimeGroupInputSchema,
  TIME_RANGE_FIELDS,
  TELECOM_MSG,
  displayForm,
  nationalForm,
  storedForm,
  type AudioMetaInput,
  type BlockedNumberInput,
  type Destination,
  type DestinationValue,
  type InboundInput,
  type IvrInput,
  type LastCallInput,
  type NotificationInput,
  type OutboundRuleInput,
  type PbxConfig,
  type PbxNumberInput,
  type PbxResource,
  type QueueInput,
  type RingGroupInput,
  type TimeConditionInput,
  type TimeGroupInput,
} from '@tongdai/contracts';
import * as v from 'valibot';
import type { Queryable } from '../../db/db';
import { nextStateChange } from '../routing';
import { PBX_API_MSG, invalid } from './pbx.errors';
import { REFS, type Ref } from './references';
import { refreshTempOverrides } from './time-overrides';

/**
 * The fourteen partner-API resources described once: table, path, permissions, how a row reads
 * and writes, what it points at. Repository, service and routes are generic over this.
 */

type Perm = { view: string; create: string; edit: string; delete: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = v.GenericSchema<any, any>;
type Row = Record<string, unknown> & { id: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPbxDef = PbxDef<any>;

export interface WriteContext {
  /** The tenant's configuration before the write. */
  config: PbxConfig;
  now: Date;
}

export interface PbxDef<I = never> {
  path: PbxResource;
  table: string;
  perm: Perm;
  /** JSON body of POST and PUT (greeting/moh POST is multipart, handled by the audio routes). */
  schema: AnySchema;
  /** PUT body when it differs (a time group's PUT changes name/description only). */
  updateSchema?: AnySchema;
  /** `select … from <table> x`; no where clause (scope and filters are added around it). */
  select: string;
  /** Rows of a shared table that belong to this resource (blocked in/out, greeting/moh). */
  scope?: { column: string; value: string };
  /** Expressions over the select's output (aliased r) matched by ?search=. */
  search: string[];
  order: string;
  /** Expression over r matched by ?filter_action= (inbound: the destination type). */
  filterAction?: string;
  columns(input: I, ctx: WriteContext): Record<string, unknown>;
  /** Child rows written after the row itself (IVR entries, a new time group's ranges). */
  children?(tx: Queryable, tenantId: number, id: number, input: I, created: boolean): Promise<void>;
  refs?(input: I): Ref[];
  /** Keys other objects use to point at this row (see references.ts). */
  keys?(row: Row, config: PbxConfig): string[];
  /** How the API answers a row: phone numbers stored as 84… shown as 0… (ADR 0016). */
  present?(row: Row): Row;
  /** Searched expressions that hold numbers stored as 84…: a search typed as 0…/+84… matches them too. */
  phoneSearch?: string[];
  /** Unique constraints → the field and message of the 409. */
  conflicts: { constraint: string; field: string; message: string }[];
  /** Foreign keys of rows outside the PBX configuration (so not in `keys`) that point at these rows → the delete's 409 message. */
  usedBy?: { constraint: string; message: string }[];
  /** The destination type of these rows when calls can pass through them: writes run the loop check. */
  node?: DestinationValue;
  /** Where the engine's snapshot keeps these rows. */
  configKey: keyof PbxConfig;
  tag: string;
}

const STAMPS = 'x.created_at, x.updated_at';
/** Objects with a name: listed by name, the name unique in the tenant (any case). */
const NAMED = { order: 'lower(r.name), r.id', conflicts: [{ constraint: '_name_key', field: 'name', message: PBX_MSG.nameTaken }] };

/** A destination column pair as the API's { type, target } (null when unset). */
const dest = (col: string, as: string) =>
  `case when x.${col}_type is null then null else json_build_object('type', x.${col}_type, 'target', x.${col}_target) end as ${as}`;
const destCols = (col: string, d: Destination | null) => ({ [`${col}_type`]: d?.type ?? null, [`${col}_target`]: d?.target ?? null });

/** The display name of an inbound route's destination (an external number shows as itself). */
const DESTINATION_NAME = `coalesce(case x.destination_type
    when 'ivr' then (select name from pbx_ivrs where id::text = x.destination_target)
    when 'group' then (select name from pbx_ring_groups where id::text = x.destination_target)
    when 'voicemaill' then (select name from pbx_ring_groups where id::text = x.destination_target)
    when 'msg' then (select name from pbx_notifications where id::text = x.destination_target)
    when 'time' then (select name from pbx_time_conditions where id::text = x.destination_target)
    when 'queue' then (select name from pbx_queues where id::text = x.destination_target)
    when 'lastcall' then (select name from pbx_last_calls where id::text = x.destination_target)
    when 'direct' then (select extension || ' - ' || display_name from subscribers where extension = x.destination_target)
    when 'voicmail' then (select extension || ' - ' || display_name from subscribers where extension = x.destination_target)
  end, x.destination_target) as destination_name`;

const NUMBER: PbxDef<PbxNumberInput> = {
  path: PBX_RESOURCES.number,
  table: 'pbx_numbers',
  perm: PERM.number,
  schema: PbxNumberInputSchema,
  select: `select x.id, x.number, x.description, x.active, x.switchboard_id, ${STAMPS} from pbx_numbers x`,
  search: ['r.number', 'r.description'],
  order: 'r.number',
  columns: (x) => ({ number: storedForm(x.number), description: x.description, active: x.active }),
  present: (r) => ({ ...r, number: displayForm(String(r.number)) }),
  phoneSearch: ['r.number'],
  keys: (r) => [`did:${r.number}`],
  conflicts: [{ constraint: 'number_key', field: 'number', message: PBX_MSG.numberTaken }],
  configKey: 'numbers',
  tag: 'numbers',
};

const INBOUND: PbxDef<InboundInput> = {
  path: PBX_RESOURCES.inbound,
  table: 'pbx_inbounds',
  perm: PERM.inbound,
  schema: InboundInputSchema,
  select: `select x.id, x.did, x.caller_pattern, ${dest('destination', 'destination')}, x.description, x.csat, ${DESTINATION_NAME}, ${STAMPS} from pbx_inbounds x`,
  search: ['r.did', 'r.caller_pattern', 'r.description', 'r.destination_name'],
  order: 'r.did, r.caller_pattern',
  filterAction: "r.destination->>'type'",
  columns: (x) => ({
    did: storedForm(x.did),
    caller_pattern: x.caller_pattern,
    ...destCols('destination', x.destination),
    description: x.description,
    // Issue 34 (ADR 0056): the caller rates the call once the person it reached hangs up. A write that does
    // not know the setting (a hotline's default route, telecom) leaves it as it is.
    ...(typeof x.csat === 'boolean' ? { csat: x.csat } : {}),
  }),
  present: (r) => ({ ...r, did: displayForm(String(r.did)) }),
  phoneSearch: ['r.did'],
  refs: REFS.inbound,
  conflicts: [{ constraint: 'did_caller_key', field: 'did', message: PBX_MSG.inboundTaken }],
  configKey: 'inbounds',
  tag: 'inbound routes',
};

const RING_GROUP: PbxDef<RingGroupInput> = {
  path: PBX_RESOURCES.ringGroup,
  table: 'pbx_ring_groups',
  perm: PERM.ringgroup,
  schema: RingGroupInputSchema,
  select: `select x.id, x.name, x.extensions, x.strategy, x.ring_time, ${dest('destination', 'destination')}, x.description, ${STAMPS} from pbx_ring_groups x`,
  search: ['r.name', 'r.description', 'words(r.extensions)'],
  ...NAMED,
  columns: (x) => ({ name: x.name, extensions: x.extensions, strategy: x.strategy, ring_time: x.ring_time, ...destCols('destination', x.destination), description: x.description }),
  refs: REFS.ringGroup,
  keys: (r) => [`group:${r.id}`],
  node: 'group',
  configKey: 'ringGroups',
  tag: 'ring groups',
};

const QUEUE: PbxDef<QueueInput> = {
  path: PBX_RESOURCES.queue,
  table: 'pbx_queues',
  perm: PERM.queue,
  schema: QueueInputSchema,
  select: `select x.id, x.name, x.agents, x.strategy, x.agent_timeout, x.max_wait, ${dest('timeout', 'timeout_destination')},
      x.join_greeting_id, x.moh_class, x.description, x.sla_seconds, x.amber_wait_seconds, x.red_wait_seconds, x.recording_mode, x.csat, ${STAMPS} from pbx_queues x`,
  search: ['r.name', 'r.description', 'words(r.agents)'],
  ...NAMED,
  columns: (x) => ({
    name: x.name,
    agents: x.agents,
    strategy: x.strategy,
    agent_timeout: x.agent_timeout,
    max_wait: x.max_wait,
    ...destCols('timeout', x.timeout_destination),
    join_greeting_id: x.join_greeting_id,
    moh_class: x.moh_class,
    description: x.description,
    sla_seconds: x.sla_seconds,
    amber_wait_seconds: x.amber_wait_seconds,
    red_wait_seconds: x.red_wait_seconds,
    // Issue 16: calls answered from this queue are recorded under this mode (null: the tenant's).
    recording_mode: x.recording_mode,
    // Issue 34: once the agent hangs up, the caller is asked to rate the call (the media continue says so).
    csat: x.csat,
  }),
  refs: REFS.queue,
  keys: (r) => [`queue:${r.id}`],
  node: 'queue',
  configKey: 'queues',
  tag: 'queues',
};

const IVR: PbxDef<IvrInput> = {
  path: PBX_RESOURCES.ivr,
  table: 'pbx_ivrs',
  perm: PERM.ivr,
  schema: IvrInputSchema,
  select: `select x.id, x.name, x.greeting_id,
      coalesce((select json_agg(json_build_object('digit', e.digit, 'destination', json_build_object('type', e.destination_type, 'target', e.destination_target))
        order by e.position) from pbx_ivr_entries e where e.ivr_id = x.id), '[]'::json) as entries,
      x.timeout, x.invalid_retries, ${dest('timeout', 'timeout_destination')}, ${dest('invalid', 'invalid_destination')},
      x.direct_dial, x.description, ${STAMPS} from pbx_ivrs x`,
  search: ['r.name', 'r.description'],
  ...NAMED,
  columns: (x) => ({
    name: x.name,
    greeting_id: x.greeting_id,
    timeout: x.timeout,
    invalid_retries: x.invalid_retries,
    ...destCols('timeout', x.timeout_destination),
    ...destCols('invalid', x.invalid_destination),
    direct_dial: x.direct_dial,
    description: x.description,
  }),
  async children(tx, tenantId, id, x) {
    await tx.query('delete from pbx_ivr_entries where ivr_id = $1', [id]);
    for (const [i, e] of x.entries.entries()) {
      await tx.query(
        'insert into pbx_ivr_entries (tenant_id, ivr_id, position, digit, destination_type, destination_target) values ($1, $2, $3, $4, $5, $6)',
        [tenantId, id, i, e.digit, e.destination.type, e.destination.target],
      );
    }
  },
  refs: REFS.ivr,
  keys: (r) => [`ivr:${r.id}`],
  node: 'ivr',
  configKey: 'ivrs',
  tag: 'IVR',
};

const NOTIFICATION: PbxDef<NotificationInput> = {
  path: PBX_RESOURCES.notification,
  table: 'pbx_notifications',
  perm: PERM.notification,
  schema: NotificationInputSchema,
  select: `select x.id, x.name, x.greeting_id, ${dest('destination', 'destination')}, x.description, ${STAMPS} from pbx_notifications x`,
  search: ['r.name', 'r.description'],
  ...NAMED,
  columns: (x) => ({ name: x.name, greeting_id: x.greeting_id, ...destCols('destination', x.destination), description: x.description }),
  refs: REFS.notification,
  keys: (r) => [`msg:${r.id}`],
  node: 'msg',
  configKey: 'notifications',
  tag: 'notifications',
};

export const RANGE_COLUMNS = TIME_RANGE_FIELDS;

const TIME_GROUP: PbxDef<TimeGroupInput> = {
  path: PBX_RESOURCES.timeGroup,
  table: 'pbx_time_groups',
  perm: PERM.timegroup,
  schema: TimeGroupInputSchema,
  updateSchema: v.object({
    name: TimeGroupInputSchema.entries.name,
    description: TimeGroupInputSchema.entries.description,
    holiday_mode: v.optional(TimeGroupInputSchema.entries.holiday_mode.wrapped),
  }),
  select: `select x.id, x.name, x.description, x.holiday_mode,
      coalesce((select json_agg(json_build_object('id', t.id, ${RANGE_COLUMNS.map((c) => `'${c}', t.${c}`).join(', ')}) order by t.id)
        from pbx_time_ranges t where t.time_group_id = x.id), '[]'::json) as ranges, ${STAMPS} from pbx_time_groups x`,
  search: ['r.name', 'r.description'],
  ...NAMED,
  // A PUT without holiday_mode keeps the group's (clients from before issue 39 send name and description).
  columns: (x) => ({ name: x.name, description: x.description, ...(x.holiday_mode && { holiday_mode: x.holiday_mode }) }),
  async children(tx, tenantId, id, x, created) {
    if (!created) {
      if (x.holiday_mode) await refreshTempOverrides(tx, [id]);
      return;
    }
    // A group that holds on holidays may have no range of its own (a "Ngày lễ" group).
    if (!x.ranges.length && x.holiday_mode !== 'include') throw invalid([{ field: 'ranges', message: PBX_MSG.rangeRequired }]);
    for (const range of x.ranges) await insertRange(tx, tenantId, id, range);
  },
  keys: (r) => [`timegroup:${r.id}`],
  configKey: 'timeGroups',
  tag: 'time groups',
};

export async function insertRange(tx: Queryable, tenantId: number, groupId: number, range: Record<string, unknown>): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into pbx_time_ranges (tenant_id, time_group_id, ${RANGE_COLUMNS.join(', ')})
     values ($1, $2, ${RANGE_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')}) returning id`,
    [tenantId, groupId, ...RANGE_COLUMNS.map((c) => range[c])],
  );
  return rows[0].id;
}

const TIME_CONDITION: PbxDef<TimeConditionInput> = {
  path: PBX_RESOURCES.timeCondition,
  table: 'pbx_time_conditions',
  perm: PERM.timecondition,
  schema: TimeConditionInputSchema,
  select: `select x.id, x.name, x.time_group_id, (select name from pbx_time_groups g where g.id = x.time_group_id) as time_group_name,
      ${dest('matched', 'matched_destination')}, ${dest('unmatched', 'unmatched_destination')},
      x.override, x.override_set_at, x.override_until, x.timezone, x.description, ${STAMPS} from pbx_time_conditions x`,
  search: ['r.name', 'r.description', 'r.time_group_name'],
  ...NAMED,
  columns(x, { config, now }) {
    // A temporary override lasts until the group next changes state, from the moment it is saved.
    const temp = x.override.startsWith('temp_');
    const group = config.timeGroups.find((g) => g.id === x.time_group_id);
    return {
      name: x.name,
      time_group_id: x.time_group_id,
      ...destCols('matched', x.matched_destination),
      ...destCols('unmatched', x.unmatched_destination),
      override: x.override,
      override_set_at: temp ? now : null,
      override_until: temp && group ? nextStateChange(group, now, x.timezone, config.holidays) : null,
      timezone: x.timezone,
      description: x.description,
    };
  },
  refs: REFS.timeCondition,
  keys: (r) => [`time:${r.id}`],
  node: 'time',
  configKey: 'timeConditions',
  tag: 'time conditions',
};

const LAST_CALL: PbxDef<LastCallInput> = {
  path: PBX_RESOURCES.lastCall,
  table: 'pbx_last_calls',
  perm: PERM.lastcall,
  schema: LastCallInputSchema,
  select: `select x.id, x.name, x.days, x.ring_time, ${dest('fallback', 'fallback_destination')}, x.description, ${STAMPS} from pbx_last_calls x`,
  search: ['r.name', 'r.description'],
  ...NAMED,
  columns: (x) => ({ name: x.name, days: x.days, ring_time: x.ring_time, ...destCols('fallback', x.fallback_destination), description: x.description }),
  refs: REFS.lastCall,
  keys: (r) => [`lastcall:${r.id}`],
  node: 'lastcall',
  configKey: 'lastCalls',
  tag: 'last calls',
};

/** Switchboards must be the tenant's; the caller id, when set, one of its hotlines (issue 15). */
function checkOutboundTelecom(x: OutboundRuleInput, config: PbxConfig): void {
  const boards = new Set((config.switchboards ?? []).map((s) => s.id));
  if (x.switchboard_ids.some((id) => !boards.has(id))) throw invalid([{ field: 'switchboard_ids', message: TELECOM_MSG.switchboardsRequired }]);
  const hotline = (n: string) => config.numbers.some((d) => d.switchboard_id != null && nationalForm(d.number) === nationalForm(n));
  if (x.caller_id && !hotline(x.caller_id)) throw invalid([{ field: 'caller_id', message: TELECOM_MSG.callerIdNotHotline }]);
}

const OUTBOUND_FIELDS = ['name', 'pattern', 'strip', 'prepend', 'switchboard_ids', 'caller_id_mode', 'caller_id', 'priority', 'allow_international', 'allow_premium', 'description'] as const;
const OUTBOUND: PbxDef<OutboundRuleInput> = {
  path: PBX_RESOURCES.outbound,
  table: 'pbx_outbound_rules',
  perm: PERM.outbound,
  schema: OutboundRuleInputSchema,
  // `trunk`: the legacy free text of rules made before switchboards, read but no longer written.
  select: `select x.id, ${OUTBOUND_FIELDS.map((f) => `x.${f}`).join(', ')}, x.trunk, ${STAMPS} from pbx_outbound_rules x`,
  search: ['r.name', 'r.pattern', 'r.trunk', 'r.description'],
  ...NAMED,
  // Rules are tried in priority order, so that is how they are listed.
  order: 'r.priority, lower(r.name), r.id',
  columns: (x, { config }) => {
    checkOutboundTelecom(x, config);
    return Object.fromEntries(OUTBOUND_FIELDS.map((f) => [f, x[f]]));
  },
  configKey: 'outboundRules',
  tag: 'outbound rules',
};

const blocked = (direction: 'in' | 'out', path: PbxResource): PbxDef<BlockedNumberInput> => ({
  path,
  table: 'pbx_blocked_numbers',
  perm: PERM.blocked,
  schema: BlockedNumberInputSchema,
  select: `select x.id, x.direction, x.number, x.match, x.note, ${STAMPS} from pbx_blocked_numbers x`,
  scope: { column: 'direction', value: direction },
  search: ['r.number', 'r.note'],
  order: 'r.number, r.id',
  // A prefix stays as typed: "024" has no 84… form routing could match (ADR 0016).
  columns: (x) => ({ direction, number: x.match === 'exact' ? storedForm(x.number) : x.number, match: x.match, note: x.note }),
  present: (r) => (r.match === 'exact' ? { ...r, number: displayForm(String(r.number)) } : r),
  phoneSearch: ['r.number'],
  conflicts: [{ constraint: 'pbx_blocked_numbers_key', field: 'number', message: PBX_API_MSG.blockedTaken }],
  configKey: 'blocked',
  tag: `blocked ${direction}`,
});

/** Greetings and music on hold: JSON PUT edits the metadata; the file comes with the multipart POST. */
/** The stored file, set by the multipart POST only. */
type AudioInput = AudioMetaInput & { file?: { file_name: string; mime: string; size_bytes: number; duration_seconds: number; bytes: Buffer } };
const audio = (kind: 'greeting' | 'moh', path: PbxResource, perm: Perm): PbxDef<AudioInput> => ({
  path,
  table: 'pbx_audio',
  perm,
  schema: AudioMetaInputSchema,
  select: `select x.id, x.kind, x.name, x.moh_class, x.file_name, x.mime, x.size_bytes, x.duration_seconds::float8 as duration_seconds, ${STAMPS} from pbx_audio x`,
  scope: { column: 'kind', value: kind },
  search: ['r.name', 'r.file_name', 'r.moh_class'],
  ...NAMED,
  columns: (x) => ({ kind, name: x.name, moh_class: kind === 'moh' ? x.moh_class : '', ...x.file }),
  // A class is gone only with its last file: queues name the class, not the file.
  keys: (r, config) => {
    if (kind === 'greeting') return [`greeting:${r.id}`];
    const cls = String(r.moh_class);
    const others = config.audio.some((a) => a.kind === 'moh' && a.id !== r.id && a.moh_class === cls);
    return cls && !others ? [`moh:${cls}`] : [];
  },
  // A survey question's recording (migration 0063) is a greeting outside the configuration: its key refuses the delete.
  usedBy: kind === 'greeting' ? [{ constraint: 'survey_questions_voice_audio_fk', message: PBX_MSG.inUse('câu hỏi khảo sát') }] : [],
  configKey: 'audio',
  tag: kind === 'greeting' ? 'greetings' : 'music on hold',
});

export const GREETING = audio('greeting', PBX_RESOURCES.greeting, PERM.greeting);
export const MOH = audio('moh', PBX_RESOURCES.moh, PERM.moh);
export { INBOUND, NUMBER, TIME_GROUP };

/** Every resource, in the order the engine's snapshot is read (the audio pair shares one table). */
export const PBX_DEFS = [
  NUMBER,
  INBOUND,
  RING_GROUP,
  QUEUE,
  IVR,
  NOTIFICATION,
  TIME_GROUP,
  TIME_CONDITION,
  LAST_CALL,
  OUTBOUND,
  blocked('in', PBX_RESOURCES.blockedIn),
  blocked('out', PBX_RESOURCES.blockedOut),
  GREETING,
  MOH,
] as AnyPbxDef[];
