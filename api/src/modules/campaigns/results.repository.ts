import {
  CONTACT_RESULTS, SURVEY_COMPLETED_RESULTS, YES_NO_LABELS, type AttemptOutcomes, type CampaignResults, type ContactResult, type QuestionAsAsked, type QuestionResults,
  type SurveyAnswerValue, type SurveyQuestionKind,
} from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import { progressOf } from './campaigns.repository';

/**
 * THE read model of a campaign's results (issue 33 slice 4, ADR 0050): contacts (progress),
 * attempts and Decree 91 refusals, answers per question, outcomes per agent and per Vietnam day.
 * Every figure the results screen shows comes from here. Runs inside withTenant: RLS supplies the tenant.
 */

const isResult = (r: string | null): r is ContactResult => r !== null && (CONTACT_RESULTS as readonly string[]).includes(r);
const outcomes = (): AttemptOutcomes => ({ attempts: 0, refused: 0, by_result: {} });
function add(o: AttemptOutcomes, r: { result: string | null; refusal: string | null; n: number }): void {
  o.attempts += r.n;
  if (r.refusal) o.refused += r.n;
  if (isResult(r.result)) o.by_result[r.result] = (o.by_result[r.result] ?? 0) + r.n;
}

/** An option's label as the screen shows it: yes/no in Vietnamese, the rest as answered. */
const labelOf = (kind: SurveyQuestionKind, raw: string) => (kind === 'yes_no' ? (raw === 'true' ? YES_NO_LABELS.true : raw === 'false' ? YES_NO_LABELS.false : raw) : raw);
/** The options a question offers, in order, before those answered that it no longer offers. */
function offered(kind: SurveyQuestionKind, options: string[]): string[] {
  if (kind === 'yes_no') return [YES_NO_LABELS.true, YES_NO_LABELS.false];
  if (kind === 'rating') return ['1', '2', '3', '4', '5'];
  if (kind === 'single' || kind === 'multiple') return options;
  return [];
}

interface AttemptRow {
  key: string;
  name: string | null;
  result: string | null;
  refusal: string | null;
  n: number;
}

export async function campaignResults(tx: Queryable, campaignId: number): Promise<CampaignResults> {
  const progress = (await progressOf(tx, [campaignId])).get(campaignId)!;

  // Attempts per agent and per Vietnam day, in one pass over the campaign's attempts.
  const { rows: grouped } = await tx.query<AttemptRow & { by: 'agent' | 'day' }>(
    `with a as (
       select a.user_id, (a.started_at at time zone 'Asia/Ho_Chi_Minh')::date as day, a.result, a.refusal
         from campaign_attempts a join campaign_contacts c on c.id = a.contact_id where c.campaign_id = $1)
     select 'agent' as by, coalesce(a.user_id::text, '') as key, coalesce(nullif(u.full_name, ''), u.username) as name, a.result, a.refusal, count(*)::int as n
       from a left join users u on u.id = a.user_id group by a.user_id, u.full_name, u.username, a.result, a.refusal
     union all
     select 'day', to_char(day, 'YYYY-MM-DD'), null, result, refusal, count(*)::int from a group by day, result, refusal`,
    [campaignId],
  );
  const attempts: CampaignResults['attempts'] = { total: 0, refused: 0, refusals: {} };
  const agents = new Map<string, CampaignResults['agents'][number]>();
  const days = new Map<string, CampaignResults['days'][number]>();
  for (const r of grouped) {
    if (r.by === 'day') {
      if (!days.has(r.key)) days.set(r.key, { day: r.key, ...outcomes() });
      add(days.get(r.key)!, r);
      continue;
    }
    if (!agents.has(r.key)) agents.set(r.key, { user_id: r.key === '' ? null : Number(r.key), name: r.name ?? 'Tự động', ...outcomes() });
    add(agents.get(r.key)!, r);
    attempts.total += r.n;
    if (r.refusal) {
      attempts.refused += r.n;
      const reason = r.refusal as keyof CampaignResults['attempts']['refusals'];
      attempts.refusals[reason] = (attempts.refusals[reason] ?? 0) + r.n;
    }
  }

  return {
    progress,
    attempts,
    questions: await questionResults(tx, campaignId),
    agents: [...agents.values()].sort((a, b) => b.attempts - a.attempts || a.name.localeCompare(b.name, 'vi')),
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}

/**
 * Answers per question: the campaign's questions in its order (as they are now), then questions
 * answered that it no longer asks (as they were asked). Options counted from each answer's value
 * (an array counts each option picked), the average of numbers, texts counted.
 */
async function questionResults(tx: Queryable, campaignId: number): Promise<QuestionResults[]> {
  const { rows: asked } = await tx.query<{ id: number; kind: SurveyQuestionKind; text: string; options: string[] }>(
    `select q.id, q.kind, q.text, q.options from campaign_questions cq join survey_questions q on q.id = cq.question_id
      where cq.campaign_id = $1 order by cq.position`,
    [campaignId],
  );
  const { rows: totals } = await tx.query<{ question_id: number; question: QuestionAsAsked; answered: number; average: number | null }>(
    `select a.question_id, (array_agg(a.question order by a.saved_at desc))[1] as question,
            count(*) filter (where jsonb_typeof(a.value) <> 'null' and a.value not in ('""'::jsonb, '[]'::jsonb))::int as answered,
            avg((a.value #>> '{}')::numeric) filter (where jsonb_typeof(a.value) = 'number')::float8 as average
       from survey_answers a join campaign_contacts c on c.id = a.contact_id
      where c.campaign_id = $1 group by a.question_id`,
    [campaignId],
  );
  const { rows: picked } = await tx.query<{ question_id: number; label: string; n: number }>(
    `select a.question_id, v.label, count(*)::int as n
       from survey_answers a join campaign_contacts c on c.id = a.contact_id
      cross join lateral jsonb_array_elements_text(case when jsonb_typeof(a.value) = 'array' then a.value else jsonb_build_array(a.value) end) as v(label)
      where c.campaign_id = $1 and a.question->>'kind' in ('single', 'multiple', 'yes_no', 'rating') and jsonb_typeof(a.value) in ('string', 'number', 'boolean', 'array')
      group by a.question_id, v.label`,
    [campaignId],
  );
  const byQuestion = new Map(totals.map((t) => [t.question_id, t]));
  const questions: { id: number; kind: SurveyQuestionKind; text: string; options: string[] }[] = [
    ...asked,
    ...totals.filter((t) => !asked.some((q) => q.id === t.question_id)).map((t) => ({ id: t.question_id, kind: t.question.kind, text: t.question.text, options: t.question.options })),
  ];
  return questions.map((q) => {
    const counts = new Map(offered(q.kind, q.options).map((label) => [label, 0]));
    for (const p of picked) if (p.question_id === q.id) counts.set(labelOf(q.kind, p.label), (counts.get(labelOf(q.kind, p.label)) ?? 0) + p.n);
    const t = byQuestion.get(q.id);
    const averaged = q.kind === 'number' || q.kind === 'rating';
    return {
      question_id: q.id, text: q.text, kind: q.kind, answered: t?.answered ?? 0,
      options: [...counts].map(([label, count]) => ({ label, count })),
      average: averaged && t?.average !== null && t?.average !== undefined ? Math.round(t.average * 100) / 100 : null,
    };
  });
}

/** One contact of the export: its state, result, refusal, attempts, last agent and time, and its answers by question. */
export interface ExportContactRow {
  id: number;
  name: string;
  number: string;
  state: string;
  result: string | null;
  refusal: string | null;
  attempts: number;
  agent_name: string | null;
  last_at: unknown;
  answers: Record<string, SurveyAnswerValue> | null;
}

/** A page of the export's contacts after `afterId` (keyset, by id). */
export async function exportContacts(tx: Queryable, campaignId: number, afterId: number, limit: number): Promise<ExportContactRow[]> {
  const { rows } = await tx.query<ExportContactRow>(
    `select c.id::int, c.name, c.number, c.state, c.result, c.refusal, c.attempts, l.agent_name, l.started_at as last_at,
            (select jsonb_object_agg(a.question_id::text, a.value) from survey_answers a where a.contact_id = c.id) as answers
       from campaign_contacts c
       left join lateral (select coalesce(nullif(u.full_name, ''), u.username) as agent_name, a.started_at from campaign_attempts a
                            left join users u on u.id = a.user_id where a.contact_id = c.id order by a.started_at desc, a.id desc limit 1) l on true
      where c.campaign_id = $1 and c.id > $2 order by c.id limit $3`,
    [campaignId, afterId, limit],
  );
  return rows.map((r) => ({ ...r, last_at: r.last_at === null ? null : iso(r.last_at) }));
}

/**
 * The KPI "survey calls completed" (ADR 0050), from the same rows as the results: attempts by these
 * accounts in survey campaigns, started in [from, to), ended with a result of SURVEY_COMPLETED_RESULTS.
 * An index probe per account (campaign_attempts_user_idx: tenant, user, started_at, allowed attempts).
 */
export async function surveyCallsCompleted(tx: Queryable, userIds: readonly number[], from: Date, to: Date): Promise<number> {
  if (!userIds.length) return 0;
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n
       from campaign_attempts a
       join campaign_contacts k on k.id = a.contact_id
       join campaigns c on c.id = k.campaign_id and c.family = 'survey'
      where a.user_id = any($1::int[]) and a.refusal is null and a.started_at >= $2 and a.started_at < $3 and a.result = any($4::text[])`,
    [userIds, from, to, [...SURVEY_COMPLETED_RESULTS]],
  );
  return rows[0].n;
}
