import { TIME_RANGE_FIELDS, type CampaignFamily, type CampaignMode, type ContactResult, type DialerCallState, type HolidayMode, type QuestionAsAsked, type SurveyAnswerValue, type TimeGroup, type TimeRange, type WorkAttempt, type WorkQuestion } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';

/** SQL of the agent's working screen (ADR 0050 slice 3). Runs inside withTenant: RLS supplies the tenant. */

export interface WorkCampaignRow {
  id: number;
  family: CampaignFamily;
  name: string;
  purpose: 'advertising' | 'care' | 'transactional';
  state: string;
  script: string;
  hotline_id: number;
  hotline_number: string;
  time_group_id: number | null;
  retry_busy_min: number;
  retry_no_answer_min: number;
  max_attempts: number;
  mode: CampaignMode;
  /** Predictive: the share of answered calls that may be abandoned (0.005–0.03). */
  abandon_cap: string | number;
  /** The hotline's cap on dialer calls started per minute (null: none). */
  hotline_max_calls_per_minute: number | null;
  /** An automated voice survey: its calls up at once. */
  voice_channels: number;
}

export async function workCampaign(tx: Queryable, family: CampaignFamily | null, id: number): Promise<WorkCampaignRow | null> {
  const { rows } = await tx.query<WorkCampaignRow>(
    `select c.id, c.family, c.name, c.purpose, c.state, c.script, c.hotline_id, n.number as hotline_number, c.time_group_id, c.retry_busy_min, c.retry_no_answer_min, c.max_attempts, c.mode, c.abandon_cap, c.voice_channels,
            n.max_calls_per_minute as hotline_max_calls_per_minute
       from campaigns c join pbx_numbers n on n.id = c.hotline_id where c.id = $1 and ($2::text is null or c.family = $2)`,
    [id, family],
  );
  return rows[0] ?? null;
}

/** The user is one of the campaign's agents: named, or a member of one of its teams. */
export async function isAgent(tx: Queryable, campaignId: number, userId: number): Promise<boolean> {
  const { rows } = await tx.query(
    `select 1 from campaign_agents a where a.campaign_id = $1
        and (a.user_id = $2 or a.team_id = (select u.team_id from users u where u.id = $2)) limit 1`,
    [campaignId, userId],
  );
  return rows.length > 0;
}

/** The campaign's calling window (a PBX time group): its ranges and how it treats public holidays. */
export async function callingWindow(tx: Queryable, groupId: number): Promise<Pick<TimeGroup, 'holiday_mode' | 'ranges'>> {
  const { rows: groups } = await tx.query<{ holiday_mode: HolidayMode }>('select holiday_mode from pbx_time_groups where id = $1', [groupId]);
  const { rows } = await tx.query<TimeRange>(`select id, ${TIME_RANGE_FIELDS.join(', ')} from pbx_time_ranges where time_group_id = $1 order by id`, [groupId]);
  return { holiday_mode: groups[0]?.holiday_mode ?? 'none', ranges: rows };
}

export async function workQuestions(tx: Queryable, campaignId: number): Promise<WorkQuestion[]> {
  const { rows } = await tx.query<WorkQuestion>(
    `select q.id, q.version, q.kind, q.text, q.options, q.required from campaign_questions cq join survey_questions q on q.id = cq.question_id
      where cq.campaign_id = $1 order by cq.position`,
    [campaignId],
  );
  return rows;
}

/** A question of a voice survey: as the screen's, with its recording (survey_questions.voice_audio_id; null: spoken). */
export type VoiceWorkQuestion = WorkQuestion & { voice_audio_id: number | null };

/** The campaign's questions in order, as a voice survey asks them. */
export async function voiceQuestions(tx: Queryable, campaignId: number): Promise<VoiceWorkQuestion[]> {
  const { rows } = await tx.query<VoiceWorkQuestion>(
    `select q.id, q.version, q.kind, q.text, q.options, q.required, q.voice_audio_id from campaign_questions cq join survey_questions q on q.id = cq.question_id
      where cq.campaign_id = $1 order by cq.position`,
    [campaignId],
  );
  return rows;
}

/** A question as a voice survey's call asked it (`campaign_attempts.voice_questions`): as asked, and the recording it played (null: spoken). */
export type VoiceQuestionAsAsked = QuestionAsAsked & { audio_id: number | null };

export interface HeldRow {
  id: number;
  name: string;
  number: string;
  fields: Record<string, string>;
  customer_id: number | null;
  attempts: number;
  callback_user_id: number | null;
  held_until: unknown;
  /** Its latest dialer call's state (progressive campaigns); null when the dialer never called it. */
  dialer_state: DialerCallState | null;
}
const HELD = `id::int, name, number, fields, customer_id, attempts, callback_user_id, held_until,
  (select a.dialer_state from campaign_attempts a where a.contact_id = campaign_contacts.id and a.dialer_state is not null order by a.id desc limit 1) as dialer_state`;

/** Serialises one agent's hand-outs in one campaign (until the transaction ends). */
export async function agentTurn(tx: Queryable, campaignId: number, userId: number): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtext('campaigns.handout'), hashtext($1::text || ':' || $2::text))", [campaignId, userId]);
}

/** The contact this agent already holds in the campaign (a reload finds it again), its lease renewed. */
export async function renewHeld(tx: Queryable, campaignId: number, userId: number, at: Date, leaseSec: number, contactId?: number): Promise<HeldRow | null> {
  const { rows } = await tx.query<HeldRow>(
    `update campaign_contacts set held_until = $3::timestamptz + make_interval(secs => $4), updated_at = $3
      where campaign_id = $1 and state = 'held' and held_by = $2 and ($5::bigint is null or id = $5)
      returning ${HELD}`,
    [campaignId, userId, at, leaseSec, contactId ?? null],
  );
  return rows[0] ?? null;
}

/**
 * THE hand-out (ADR 0050), one statement for the preview screen and the dialer to come: a pending
 * contact due, a callback due to this agent, or a contact whose holder's lease ran out; callbacks
 * first. `for update skip locked`: two agents (two API instances) racing never get the same row —
 * the second skips the row the first has locked and takes the next.
 */
export async function handOut(tx: Queryable, campaignId: number, userId: number | null, at: Date, leaseSec: number, callbacksOnly = false): Promise<HeldRow | null> {
  const { rows } = await tx.query<HeldRow>(
    `update campaign_contacts set state = 'held', held_by = $2, held_until = $3::timestamptz + make_interval(secs => $4), updated_at = $3
      where id = (select id from campaign_contacts
                     where campaign_id = $1 and (not $5::boolean and state = 'pending' and next_at <= $3
                            or state = 'callback' and next_at <= $3 and callback_user_id = $2
                            or not $5::boolean and state = 'held' and held_until < $3)
                     order by (state = 'callback') desc, next_at, id
                     for update skip locked limit 1)
      returning ${HELD}`,
    [campaignId, userId, at, leaseSec, callbacksOnly],
  );
  return rows[0] ?? null;
}

/** Of these agents, those with a callback of the campaign due now (one read; the hand-out then takes each). */
export async function callbacksDue(tx: Queryable, campaignId: number, userIds: number[], at: Date): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const { rows } = await tx.query<{ user_id: number }>(
    `select distinct callback_user_id as user_id from campaign_contacts
      where campaign_id = $1 and state = 'callback' and next_at <= $3 and callback_user_id = any($2::int[])`,
    [campaignId, userIds, at],
  );
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function customerCard(tx: Queryable, customerId: number | null, number: string): Promise<{ id: number; name: string; code: string } | null> {
  const { rows } = await tx.query<{ id: number; name: string; code: string }>(
    `select id, name, code from customers where ($1::int is not null and id = $1) or phone = $2 order by (id = $1) desc nulls last, id limit 1`,
    [customerId, number],
  );
  return rows[0] ?? null;
}

export async function attemptsOf(tx: Queryable, contactId: number): Promise<WorkAttempt[]> {
  const { rows } = await tx.query<WorkAttempt>(
    `select a.id::int, a.started_at, coalesce(nullif(u.full_name, ''), u.username) as agent_name, a.result, a.refusal
       from campaign_attempts a left join users u on u.id = a.user_id where a.contact_id = $1 order by a.started_at desc, a.id desc limit 20`,
    [contactId],
  );
  return rows.map((r) => ({ ...r, started_at: iso(r.started_at) }));
}

export async function answersOf(tx: Queryable, contactId: number): Promise<Record<string, { value: SurveyAnswerValue; question: QuestionAsAsked }>> {
  const { rows } = await tx.query<{ question_id: number; value: SurveyAnswerValue; question: QuestionAsAsked }>(
    'select question_id, value, question from survey_answers where contact_id = $1',
    [contactId],
  );
  return Object.fromEntries(rows.map((r) => [String(r.question_id), { value: r.value, question: r.question }]));
}

/**
 * Upserts one answer with the question as asked; its attempt is `attemptId` (a voice survey's call) or else
 * the latest attempt of the contact, if any.
 */
export async function saveAnswer(tx: Queryable, tenantId: number, contactId: number, question: QuestionAsAsked, value: SurveyAnswerValue, at: Date, attemptId: number | null = null): Promise<void> {
  await tx.query(
    `insert into survey_answers (tenant_id, contact_id, attempt_id, question_id, question, value, saved_at)
     values ($1, $2, coalesce($7::bigint, (select max(id) from campaign_attempts where contact_id = $2)), $3, $4, $5, $6)
     on conflict (contact_id, question_id) do update set question = excluded.question, value = excluded.value, saved_at = excluded.saved_at,
       attempt_id = coalesce(excluded.attempt_id, survey_answers.attempt_id)`,
    [tenantId, contactId, question.question_id, JSON.stringify(question), JSON.stringify(value), at, attemptId],
  );
}

/** Locks the contact while this agent holds it (null when it is not held by them any more). */
export async function lockHeld(tx: Queryable, campaignId: number, contactId: number, userId: number): Promise<HeldRow | null> {
  const { rows } = await tx.query<HeldRow>(
    `select ${HELD} from campaign_contacts where id = $1 and campaign_id = $2 and state = 'held' and held_by = $3 for update`,
    [contactId, campaignId, userId],
  );
  return rows[0] ?? null;
}

export async function insertAttempt(tx: Queryable, tenantId: number, contactId: number, userId: number | null, at: Date, refusal: string | null, result: ContactResult | null = null): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into campaign_attempts (tenant_id, contact_id, user_id, started_at, refusal, result) values ($1, $2, $3, $4, $5, $6) returning id::int`,
    [tenantId, contactId, userId, at, refusal, result],
  );
  await tx.query('update campaign_contacts set attempts = attempts + 1, updated_at = $2 where id = $1', [contactId, at]);
  return rows[0].id;
}

/** The latest attempt of the contact not ended yet (a call placed, no result), this agent's. */
export async function openAttempt(tx: Queryable, contactId: number, userId: number): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `select id::int from campaign_attempts where contact_id = $1 and user_id = $2 and result is null and refusal is null order by id desc limit 1`,
    [contactId, userId],
  );
  return rows[0]?.id ?? null;
}

export async function setAttemptResult(tx: Queryable, attemptId: number, result: ContactResult): Promise<void> {
  await tx.query('update campaign_attempts set result = $2 where id = $1', [attemptId, result]);
}

/** Where the contact goes after a result: done, pending again at `next_at`, or a callback to the agent. */
export async function releaseContact(
  tx: Queryable, contactId: number, at: Date,
  to: { state: 'done' | 'pending' | 'callback' | 'refused'; result: ContactResult | null; nextAt?: Date; callbackUserId?: number; refusal?: string },
): Promise<void> {
  await tx.query(
    `update campaign_contacts set state = $2, result = $3, next_at = coalesce($4, next_at), callback_user_id = $5, refusal = $6,
        held_by = null, held_until = null, updated_at = $7 where id = $1`,
    [contactId, to.state, to.result, to.nextAt ?? null, to.callbackUserId ?? null, to.refusal ?? null, at],
  );
}

/** The contact's number for the softphone: only after this agent's allowed attempt on it, recent. */
export async function attemptNumber(tx: Queryable, campaignId: number, contactId: number, userId: number, since: Date): Promise<string | null> {
  const { rows } = await tx.query<{ number: string }>(
    `select c.number from campaign_contacts c where c.id = $1 and c.campaign_id = $2
        and exists (select 1 from campaign_attempts a where a.contact_id = c.id and a.user_id = $3 and a.refusal is null and a.started_at >= $4)`,
    [contactId, campaignId, userId, since],
  );
  return rows[0]?.number ?? null;
}

/**
 * The caller ID of a call an extension places (ADR 0050 slice 3): the hotline of the running campaign
 * whose allowed attempt, by the extension's agent to one of `numbers` (the callee's forms), started at
 * or after `since`; the latest such attempt wins. Null for every other call.
 */
/**
 * The running campaign (and its hotline) of the latest allowed attempt by the extension's agent to one
 * of `numbers` since `since`; with `callId`, that attempt now names the call (ADR 0050: the attempt ↔
 * CDR link is made by the plan that gives the call its campaign caller ID, in the same statement).
 */
export async function campaignHotlineOfCall(tx: Queryable, extension: string, numbers: readonly string[], since: Date, callId: string | null = null): Promise<{ campaign_id: number; hotline: string } | null> {
  const { rows } = await tx.query<{ campaign_id: number; hotline: string }>(
    `with hit as (
       select a.id as attempt_id, c.id::int as campaign_id, n.number as hotline
         from subscribers s
         join campaign_attempts a on a.user_id = s.user_id and a.refusal is null and a.started_at >= $3
         join campaign_contacts k on k.id = a.contact_id
         join campaigns c on c.id = k.campaign_id and c.state = 'running'
         join pbx_numbers n on n.id = c.hotline_id
        where s.extension = $1 and s.user_id is not null and k.number = any($2::text[])
        order by a.started_at desc, a.id desc limit 1),
     -- A data-modifying WITH runs once whether or not it is read.
     linked as (update campaign_attempts a set call_id = $4 from hit where $4::text is not null and a.id = hit.attempt_id)
     select campaign_id, hotline from hit`,
    [extension, numbers, since, callId],
  );
  return rows[0] ?? null;
}

/** When the tenant's latest allowed attempt since `since` started (null: none): whether any call may be a campaign's. */
export async function latestAllowedAttempt(tx: Queryable, since: Date): Promise<Date | null> {
  const { rows } = await tx.query<{ at: Date | null }>('select max(started_at) as at from campaign_attempts where refusal is null and started_at >= $1', [since]);
  return rows[0]?.at ?? null;
}

// ---- The progressive dialer (issue 34, ADR 0055) ----

/** Marks the agent ready for the campaign's dialer until `until` (a renewal moves it on), or not ready (null). */
export async function setReady(tx: Queryable, tenantId: number, campaignId: number, userId: number, until: Date | null, at: Date): Promise<void> {
  if (!until) {
    await tx.query('delete from campaign_dialer_agents where campaign_id = $1 and user_id = $2', [campaignId, userId]);
    return;
  }
  await tx.query(
    `insert into campaign_dialer_agents (tenant_id, campaign_id, user_id, ready_until, updated_at) values ($1, $2, $3, $4, $5)
     on conflict (campaign_id, user_id) do update set ready_until = excluded.ready_until`,
    [tenantId, campaignId, userId, until, at],
  );
}

/**
 * A ready agent stays ready until `until`: the screen of an agent holding a contact (in a dialer call, then
 * writing its result) renews its lease, not its next contact, and a call longer than DIALER_READY_SEC must
 * not leave the agent out of the campaign once it is over. An agent not ready (paused, or gone) stays so.
 */
export async function keepReady(tx: Queryable, campaignId: number, userId: number, until: Date, at: Date): Promise<void> {
  await tx.query('update campaign_dialer_agents set ready_until = $3 where campaign_id = $1 and user_id = $2 and ready_until > $4 and ready_until < $3', [campaignId, userId, until, at]);
}

/** Until when the agent is ready (null: not ready, or it ran out before `at`). */
export async function readyUntil(tx: Queryable, campaignId: number, userId: number, at: Date): Promise<Date | null> {
  const { rows } = await tx.query<{ ready_until: Date }>(
    'select ready_until from campaign_dialer_agents where campaign_id = $1 and user_id = $2 and ready_until > $3',
    [campaignId, userId, at],
  );
  return rows[0] ? new Date(rows[0].ready_until as unknown as string) : null;
}

/** Whether the hand-out would find a contact for this agent now (the same conditions, no lock). */
export async function anyDue(tx: Queryable, campaignId: number, userId: number, at: Date): Promise<boolean> {
  const { rows } = await tx.query(
    `select 1 from campaign_contacts where campaign_id = $1 and (state = 'pending' and next_at <= $3
        or state = 'callback' and next_at <= $3 and callback_user_id = $2 or state = 'held' and held_until < $3) limit 1`,
    [campaignId, userId, at],
  );
  return rows.length > 0;
}

/** The extension of the account (its linked subscriber), or null. */
export async function extensionOf(tx: Queryable, userId: number): Promise<string | null> {
  const { rows } = await tx.query<{ extension: string }>('select extension from subscribers where user_id = $1', [userId]);
  return rows[0]?.extension ?? null;
}

/** An agent the dialer may call for: ready on a running progressive campaign, holding none of its contacts, in no dialer call. */
export interface ReadyAgent {
  tenant_id: number;
  ma_dn: string;
  campaign_id: number;
  user_id: number;
  extension: string;
}

/**
 * Across tenants (withSystem): agents ready now on running progressive campaigns who hold no contact
 * of that campaign and are in no dialer call, the longest waiting first. Read without locks: the
 * hand-out for each one locks its readiness row and asks again (`lockReadyAgent`).
 */
export async function readyAgents(tx: Queryable, at: Date, limit: number): Promise<ReadyAgent[]> {
  const { rows } = await tx.query<ReadyAgent>(
    `select a.tenant_id, t.ma_dn, a.campaign_id, a.user_id, s.extension
       from campaign_dialer_agents a
       join campaigns c on c.id = a.campaign_id and c.state = 'running' and c.mode = 'progressive'
       join tenants t on t.id = a.tenant_id
       join subscribers s on s.tenant_id = a.tenant_id and s.user_id = a.user_id
      where a.ready_until > $1
        and not exists (select 1 from campaign_contacts k where k.campaign_id = a.campaign_id and k.state = 'held' and k.held_by = a.user_id and k.held_until > $1)
        and not exists (select 1 from campaign_attempts x where x.tenant_id = a.tenant_id and x.user_id = a.user_id and x.refusal is null
                          and x.dialer_state in ('calling', 'answered', 'bridged'))
      order by a.updated_at, a.campaign_id, a.user_id
      limit $2`,
    [at, limit],
  );
  return rows;
}

/**
 * The agent's readiness row locked for this hand-out, and still free (the same conditions as
 * readyAgents): two API instances, or two asks, never dial twice for one agent — the second skips
 * the locked row, or finds the first one's held contact once it committed.
 *
 * Two statements, on purpose. Under read committed a statement's subqueries read the snapshot taken
 * when it began: one `select … where not exists (…) for update skip locked` that began before the
 * first hand-out committed gets the row once the lock is gone and still sees no held contact (seen:
 * one agent handed two contacts by two instances asking at once). The lock is taken first, by key;
 * the conditions are read after it, by a statement whose snapshot holds every commit made under it.
 */
export async function lockReadyAgent(tx: Queryable, campaignId: number, userId: number, at: Date): Promise<boolean> {
  const locked = await tx.query(
    'select 1 from campaign_dialer_agents where campaign_id = $1 and user_id = $2 for update skip locked',
    [campaignId, userId],
  );
  if (locked.rows.length === 0) return false;
  const { rows } = await tx.query(
    `select 1 from campaign_dialer_agents a
      where a.campaign_id = $1 and a.user_id = $2 and a.ready_until > $3
        and not exists (select 1 from campaign_contacts k where k.campaign_id = a.campaign_id and k.state = 'held' and k.held_by = a.user_id and k.held_until > $3)
        and not exists (select 1 from campaign_attempts x where x.tenant_id = a.tenant_id and x.user_id = a.user_id and x.refusal is null
                          and x.dialer_state in ('calling', 'answered', 'bridged'))`,
    [campaignId, userId, at],
  );
  return rows.length > 0;
}

/** The longest-waiting agent goes to the back once called for. */
export async function touchReady(tx: Queryable, campaignId: number, userId: number, at: Date): Promise<void> {
  await tx.query('update campaign_dialer_agents set updated_at = $3 where campaign_id = $1 and user_id = $2', [campaignId, userId, at]);
}

/**
 * The calls the dialer may still start through a hotline now under its cap (`pbx_numbers.max_calls_per_minute`,
 * counted over the last 60 s across every campaign calling from it), and when the oldest of those leaves the
 * minute (a call may start then). A capped hotline's row is locked until the transaction ends, so instances
 * claiming at once count one after the other and never start more than the cap together. No cap (`cap`, as the
 * campaign was read): Infinity, and nothing locked — claims through an uncapped hotline never wait on each other.
 */
export async function hotlineRoom(tx: Queryable, hotlineId: number, cap: number | null, at: Date): Promise<{ room: number; freesAt: Date | null }> {
  if (cap === null) return { room: Infinity, freesAt: null };
  const { rows: [hotline] } = await tx.query<{ cap: number | null }>('select max_calls_per_minute as cap from pbx_numbers where id = $1 for no key update', [hotlineId]);
  if (!hotline || hotline.cap === null) return { room: Infinity, freesAt: null };
  const { rows } = await tx.query<{ started_at: Date | string }>(
    `select a.started_at from campaigns c join campaign_attempts a on a.campaign_id = c.id and a.dialer_state is not null
      where c.hotline_id = $1 and a.started_at > $2::timestamptz - interval '60 seconds' and a.started_at <= $2::timestamptz
      order by a.started_at desc limit $3`,
    [hotlineId, at, hotline.cap],
  );
  const room = hotline.cap - rows.length;
  return { room, freesAt: room > 0 ? null : new Date(new Date(rows[rows.length - 1].started_at).getTime() + 60_000) };
}

/** The attempt is a dialer call now placed (calling); a voice survey's keeps the questions it asks, as asked. */
export async function startDialerCall(tx: Queryable, attemptId: number, campaignId: number, at: Date, asked: VoiceQuestionAsAsked[] | null = null): Promise<void> {
  await tx.query("update campaign_attempts set dialer_state = 'calling', dialer_at = $2, campaign_id = $3, voice_questions = $4 where id = $1", [
    attemptId, at, campaignId, asked && JSON.stringify(asked),
  ]);
}

export interface DialerCallRow {
  id: number;
  call_id: string | null;
  contact_id: number;
  /** The agent the call is for: progressive, from the dial; predictive, from the agent it was given to on the answer (null until then). */
  user_id: number | null;
  dialer_state: DialerCallState;
  campaign_id: number;
  number: string;
  contact_state: string;
  held_by: number | null;
  attempts: number;
  retry_busy_min: number;
  retry_no_answer_min: number;
  max_attempts: number;
  /** The campaign's mode: a voice survey's call is answered by nobody and ends with the keys pressed. */
  mode: CampaignMode;
  /** A voice survey's call: the questions it asked, as asked (null for the other modes). */
  voice_questions: VoiceQuestionAsAsked[] | null;
}

/** A dialer call with its contact and campaign, locked for its report. */
export async function lockDialerCall(tx: Queryable, attemptId: number): Promise<DialerCallRow | null> {
  const { rows } = await tx.query<DialerCallRow>(
    `select a.id::int, a.call_id, a.contact_id::int, a.user_id, a.dialer_state, k.campaign_id, k.number, k.state as contact_state, k.held_by, k.attempts,
            c.retry_busy_min, c.retry_no_answer_min, c.max_attempts, c.mode, a.voice_questions
       from campaign_attempts a join campaign_contacts k on k.id = a.contact_id join campaigns c on c.id = k.campaign_id
      where a.id = $1 and a.dialer_state is not null for update of a, k`,
    [attemptId],
  );
  return rows[0] ?? null;
}

export async function moveDialerCall(
  tx: Queryable, attemptId: number, state: DialerCallState, at: Date,
  o: { callId?: string | null; result?: ContactResult | null; durationS?: number | null } = {},
): Promise<void> {
  await tx.query(
    `update campaign_attempts set dialer_state = $2, dialer_at = $3, call_id = coalesce($4, call_id), result = coalesce($5, result),
        duration_s = coalesce($6, duration_s), answered_at = case when $2 = 'answered' then $3 else answered_at end where id = $1`,
    [attemptId, state, at, o.callId ?? null, o.result ?? null, o.durationS ?? null],
  );
}

/**
 * Across tenants (withSystem): dialer calls no worker reported on since `before` (each report locks its own).
 * A voice survey's answered call reports nothing more until its end (it asks its questions meanwhile): lost
 * only when answered before `voiceAnsweredBefore`.
 */
export async function lostDialerCalls(tx: Queryable, before: Date, bridgedBefore: Date, voiceAnsweredBefore: Date): Promise<{ id: number; tenant_id: number; dialer_state: DialerCallState }[]> {
  const { rows } = await tx.query<{ id: number; tenant_id: number; dialer_state: DialerCallState }>(
    `select a.id::int, a.tenant_id, a.dialer_state from campaign_attempts a
      where (a.dialer_state in ('calling', 'answered') and a.dialer_at < $1 or a.dialer_state = 'bridged' and a.dialer_at < $2)
        and not (a.dialer_state = 'answered' and a.dialer_at >= $3 and exists (select 1 from campaigns c where c.id = a.campaign_id and c.mode = 'voice'))
      limit 100`,
    [before, bridgedBefore, voiceAnsweredBefore],
  );
  return rows;
}

// ---- The automated voice survey (issue 34): calls with no agent, as many as the campaign's channels ----

/**
 * Running voice surveys across tenants (withSystem) with a channel free (fewer calls up than `voice_channels`)
 * and a contact due now. Read without locks: each campaign's claim takes its pacing turn and counts again.
 */
export async function voiceCampaigns(tx: Queryable, at: Date): Promise<{ id: number; tenant_id: number; ma_dn: string }[]> {
  const { rows } = await tx.query<{ id: number; tenant_id: number; ma_dn: string }>(
    `select c.id, c.tenant_id, t.ma_dn from campaigns c join tenants t on t.id = c.tenant_id
      where c.state = 'running' and c.mode = 'voice'
        and c.voice_channels > (select count(*) from campaign_attempts a where a.campaign_id = c.id and a.dialer_state in ('calling', 'answered', 'bridged'))
        and exists (select 1 from campaign_contacts k where k.campaign_id = c.id and (k.state = 'pending' and k.next_at <= $1 or k.state = 'held' and k.held_until < $1))
      order by c.id`,
    [at],
  );
  return rows;
}

/** The campaign's dialer calls not ended yet (each holds one of a voice survey's channels). */
export async function callsUp(tx: Queryable, campaignId: number): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    "select count(*)::int as n from campaign_attempts where campaign_id = $1 and dialer_state in ('calling', 'answered', 'bridged')",
    [campaignId],
  );
  return rows[0].n;
}

// ---- Predictive (issue 34, ADR 0055): the pacing's floor and what the campaign's calls showed ----

/** Running predictive campaigns with an agent ready now, across tenants (withSystem). */
export async function predictiveCampaigns(tx: Queryable, at: Date): Promise<{ id: number; tenant_id: number; ma_dn: string }[]> {
  const { rows } = await tx.query<{ id: number; tenant_id: number; ma_dn: string }>(
    `select c.id, c.tenant_id, t.ma_dn from campaigns c join tenants t on t.id = c.tenant_id
      where c.state = 'running' and c.mode = 'predictive'
        and exists (select 1 from campaign_dialer_agents r where r.campaign_id = c.id and r.ready_until > $1)
      order by c.id`,
    [at],
  );
  return rows;
}

/** One campaign's pacing at a time across instances (a try: a campaign another instance paces now is skipped). */
export async function tryPacingTurn(tx: Queryable, campaignId: number): Promise<boolean> {
  const { rows } = await tx.query<{ ok: boolean }>("select pg_try_advisory_xact_lock(hashtext('campaigns.pace'), $1) as ok", [campaignId]);
  return rows[0].ok;
}

/**
 * The campaign's ready agents and where each stands: in a dialer call (answered or bridged: since when),
 * holding a contact with no call (the result still to choose), or neither (free, if their phone is).
 */
export interface AgentStanding {
  user_id: number;
  extension: string;
  in_call_since: Date | null;
  holding: boolean;
}
export async function agentStandings(tx: Queryable, campaignId: number, at: Date): Promise<AgentStanding[]> {
  const { rows } = await tx.query<AgentStanding>(
    `select r.user_id, s.extension,
            (select coalesce(x.answered_at, x.dialer_at) from campaign_attempts x where x.tenant_id = r.tenant_id and x.user_id = r.user_id
               and x.dialer_state in ('answered', 'bridged') order by x.id desc limit 1) as in_call_since,
            exists (select 1 from campaign_contacts k where k.campaign_id = r.campaign_id and k.state = 'held' and k.held_by = r.user_id and k.held_until > $2) as holding
       from campaign_dialer_agents r join subscribers s on s.tenant_id = r.tenant_id and s.user_id = r.user_id
      where r.campaign_id = $1 and r.ready_until > $2
      order by r.updated_at, r.user_id`,
    [campaignId, at],
  );
  return rows;
}

/**
 * The campaign's dialer calls for nobody yet, still ringing (their ages come from `started_at`) or answered and
 * waiting for an agent. A callback's call is its agent's (placed for them): it needs nobody else.
 */
export async function unansweredCalls(tx: Queryable, campaignId: number): Promise<{ started_at: Date; waiting: boolean }[]> {
  const { rows } = await tx.query<{ started_at: Date; waiting: boolean }>(
    `select started_at, dialer_state = 'answered' as waiting from campaign_attempts
      where campaign_id = $1 and dialer_state in ('calling', 'answered') and user_id is null`,
    [campaignId],
  );
  return rows;
}

/** The campaign's latest dialer calls with an outcome (a window), for what its calls showed; and its totals so far. */
export interface DialerHistoryRow {
  started_at: Date;
  answered_at: Date | null;
  dialer_at: Date;
  dialer_state: DialerCallState;
  result: string | null;
  duration_s: number | null;
}
export async function dialerHistory(tx: Queryable, campaignId: number, window: number): Promise<{ recent: DialerHistoryRow[]; answered: number; abandoned: number }> {
  const recent = await tx.query<DialerHistoryRow>(
    `select started_at, answered_at, dialer_at, dialer_state, result, duration_s from campaign_attempts
      where campaign_id = $1 and dialer_state is not null and (dialer_state <> 'calling')
      order by id desc limit $2`,
    [campaignId, window],
  );
  const totals = await tx.query<{ answered: number; abandoned: number }>(
    `select count(*) filter (where answered_at is not null)::int as answered, count(*) filter (where result = 'abandoned')::int as abandoned
       from campaign_attempts where campaign_id = $1 and dialer_state is not null`,
    [campaignId],
  );
  return { recent: recent.rows, ...totals.rows[0] };
}

/** The campaign's agents free for an answered call now, the longest waiting first (none holding a contact or in a call). */
export async function freeAgents(tx: Queryable, campaignId: number, at: Date): Promise<{ user_id: number; extension: string }[]> {
  return (await agentStandings(tx, campaignId, at)).filter((a) => !a.in_call_since && !a.holding);
}

/** Gives an answered predictive call to this agent: their readiness locked and still free, the attempt and the contact theirs. */
export async function giveCall(tx: Queryable, attemptId: number, contactId: number, campaignId: number, userId: number, at: Date, leaseSec: number): Promise<boolean> {
  if (!(await lockReadyAgent(tx, campaignId, userId, at))) return false;
  await tx.query('update campaign_attempts set user_id = $2 where id = $1 and user_id is null', [attemptId, userId]);
  await tx.query(
    "update campaign_contacts set held_by = $2, held_until = $3::timestamptz + make_interval(secs => $4), updated_at = $3 where id = $1 and state = 'held'",
    [contactId, userId, at, leaseSec],
  );
  await touchReady(tx, campaignId, userId, at);
  return true;
}
