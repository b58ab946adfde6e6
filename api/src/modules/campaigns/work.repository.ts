import type { CampaignFamily, ContactResult, QuestionAsAsked, SurveyAnswerValue, TimeRange, WorkAttempt, WorkQuestion } from '@tongdai/contracts';
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
  hotline_number: string;
  time_group_id: number | null;
  retry_busy_min: number;
  retry_no_answer_min: number;
  max_attempts: number;
}

export async function workCampaign(tx: Queryable, family: CampaignFamily, id: number): Promise<WorkCampaignRow | null> {
  const { rows } = await tx.query<WorkCampaignRow>(
    `select c.id, c.family, c.name, c.purpose, c.state, c.script, n.number as hotline_number, c.time_group_id, c.retry_busy_min, c.retry_no_answer_min, c.max_attempts
       from campaigns c join pbx_numbers n on n.id = c.hotline_id where c.id = $1 and c.family = $2`,
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

/** The ranges of the campaign's calling window (a PBX time group). */
export async function timeRanges(tx: Queryable, groupId: number): Promise<TimeRange[]> {
  const { rows } = await tx.query<TimeRange>(
    `select id, time_start, time_end, dow_start, dow_end, dom_start, dom_end, month_start, month_end from pbx_time_ranges where time_group_id = $1 order by id`,
    [groupId],
  );
  return rows;
}

export async function workQuestions(tx: Queryable, campaignId: number): Promise<WorkQuestion[]> {
  const { rows } = await tx.query<WorkQuestion>(
    `select q.id, q.version, q.kind, q.text, q.options, q.required from campaign_questions cq join survey_questions q on q.id = cq.question_id
      where cq.campaign_id = $1 order by cq.position`,
    [campaignId],
  );
  return rows;
}

export interface HeldRow {
  id: number;
  name: string;
  number: string;
  fields: Record<string, string>;
  customer_id: number | null;
  attempts: number;
  callback_user_id: number | null;
  held_until: unknown;
}
const HELD = 'id::int, name, number, fields, customer_id, attempts, callback_user_id, held_until';

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
export async function handOut(tx: Queryable, campaignId: number, userId: number, at: Date, leaseSec: number): Promise<HeldRow | null> {
  const { rows } = await tx.query<HeldRow>(
    `update campaign_contacts c set state = 'held', held_by = $2, held_until = $3::timestamptz + make_interval(secs => $4), updated_at = $3
      where c.id = (select id from campaign_contacts
                     where campaign_id = $1 and (state = 'pending' and next_at <= $3
                            or state = 'callback' and next_at <= $3 and callback_user_id = $2
                            or state = 'held' and held_until < $3)
                     order by (state = 'callback') desc, next_at, id
                     for update skip locked limit 1)
      returning ${HELD}`,
    [campaignId, userId, at, leaseSec],
  );
  return rows[0] ?? null;
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

/** Upserts one answer with the question as asked; the latest open attempt of the contact, if any, is named. */
export async function saveAnswer(tx: Queryable, tenantId: number, contactId: number, question: QuestionAsAsked, value: SurveyAnswerValue, at: Date): Promise<void> {
  await tx.query(
    `insert into survey_answers (tenant_id, contact_id, attempt_id, question_id, question, value, saved_at)
     values ($1, $2, (select max(id) from campaign_attempts where contact_id = $2), $3, $4, $5, $6)
     on conflict (contact_id, question_id) do update set question = excluded.question, value = excluded.value, saved_at = excluded.saved_at,
       attempt_id = coalesce(excluded.attempt_id, survey_answers.attempt_id)`,
    [tenantId, contactId, question.question_id, JSON.stringify(question), JSON.stringify(value), at],
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

export async function insertAttempt(tx: Queryable, tenantId: number, contactId: number, userId: number, at: Date, refusal: string | null, result: ContactResult | null = null): Promise<number> {
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
