import type {
  Campaign, CampaignContact, CampaignFamily, CampaignInput, CampaignListQuery, CampaignMode, CampaignOptions, CampaignProgress, CampaignState, ContactListQuery, CrmFilter, SurveyQuestionKind,
} from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import type { Candidate, ContactRow } from './contacts';

/** Runs inside withTenant: no query here names a tenant for reading, RLS supplies it. */

type Row = Omit<Campaign, 'progress' | 'question_ids' | 'agent_ids' | 'team_ids'> & { question_ids: number[] | null; agent_ids: number[] | null; team_ids: number[] | null };

const CAMPAIGN = `select c.id, c.family, c.name, c.description, c.purpose, c.mode, (c.abandon_cap * 100)::float8 as abandon_cap_pct, c.voice_channels, c.state, c.script, c.time_group_id, g.name as time_group_name,
    c.hotline_id, n.number as hotline_number, c.retry_busy_min, c.retry_no_answer_min, c.max_attempts, c.started_at, c.ended_at, c.created_at, c.updated_at,
    (select array_agg(q.question_id order by q.position) from campaign_questions q where q.campaign_id = c.id) as question_ids,
    (select array_agg(a.user_id order by a.user_id) from campaign_agents a where a.campaign_id = c.id and a.user_id is not null) as agent_ids,
    (select array_agg(a.team_id order by a.team_id) from campaign_agents a where a.campaign_id = c.id and a.team_id is not null) as team_ids
  from campaigns c join pbx_numbers n on n.id = c.hotline_id left join pbx_time_groups g on g.id = c.time_group_id`;

const shape = (r: Row, progress: CampaignProgress): Campaign => ({
  ...r,
  question_ids: r.question_ids ?? [],
  agent_ids: r.agent_ids ?? [],
  team_ids: r.team_ids ?? [],
  started_at: r.started_at ? iso(r.started_at) : null,
  ended_at: r.ended_at ? iso(r.ended_at) : null,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  progress,
});

/** Contacts done (a result or refused) of the total, per result and per Decree 91 refusal, of each campaign. */
export async function progressOf(tx: Queryable, ids: number[]): Promise<Map<number, CampaignProgress>> {
  const out = new Map<number, CampaignProgress>(ids.map((id) => [id, { total: 0, done: 0, pending: 0, by_result: {}, refused: {} }]));
  if (!ids.length) return out;
  const { rows } = await tx.query<{ campaign_id: number; state: string; result: string | null; refusal: string | null; n: number }>(
    `select campaign_id, state, result, refusal, count(*)::int as n from campaign_contacts where campaign_id = any($1::int[])
      group by campaign_id, state, result, refusal`,
    [ids],
  );
  // A dialer campaign's calls now and so far (an answered call has its Call-ID), its ready agents. A voice survey's
  // calls up (ringing, or answered and asking) count as `calling`: none is ever connected to an agent.
  // With its hotline's calls-per-minute cap (null: none) and the dialer calls started through it in the last minute.
  const dialer = await tx.query<{ id: number; calling: number; talking: number; answered: number; abandoned: number; ready: number; cap: number | null; started: number }>(
    `select c.id, n.max_calls_per_minute as cap,
            case when n.max_calls_per_minute is null then 0 else (
              select count(*)::int from campaigns h join campaign_attempts x on x.campaign_id = h.id and x.dialer_state is not null
               where h.hotline_id = c.hotline_id and x.started_at > now() - interval '60 seconds') end as started,
            count(a.id) filter (where a.dialer_state in ('calling', 'answered'))::int as calling,
            count(a.id) filter (where a.dialer_state = 'bridged')::int as talking,
            count(a.id) filter (where a.call_id is not null)::int as answered,
            count(a.id) filter (where a.result = 'abandoned')::int as abandoned,
            -- A voice survey has no agents: none ready (a row left from when it was progressive is not one).
            case when c.mode = 'voice' then 0 else
              (select count(*)::int from campaign_dialer_agents r where r.campaign_id = c.id and r.ready_until > now()) end as ready
       from campaigns c join pbx_numbers n on n.id = c.hotline_id left join campaign_attempts a on a.campaign_id = c.id and a.dialer_state is not null
      where c.id = any($1::int[]) and c.mode in ('progressive', 'predictive', 'voice')
      group by c.id, n.id`,
    [ids],
  );
  for (const d of dialer.rows) {
    out.get(d.id)!.dialer = {
      calling: d.calling, talking: d.talking, ready: d.ready, answered: d.answered, abandoned: d.abandoned,
      hotline_minute: d.cap === null ? null : { cap: d.cap, started: d.started },
    };
  }
  for (const r of rows) {
    const p = out.get(r.campaign_id)!;
    p.total += r.n;
    if (r.state === 'done' || r.state === 'refused') p.done += r.n;
    else p.pending += r.n;
    if (r.result) p.by_result[r.result as keyof CampaignProgress['by_result']] = (p.by_result[r.result as keyof CampaignProgress['by_result']] ?? 0) + r.n;
    if (r.state === 'refused' && r.refusal) p.refused[r.refusal as keyof CampaignProgress['refused']] = (p.refused[r.refusal as keyof CampaignProgress['refused']] ?? 0) + r.n;
  }
  return out;
}

export async function listCampaigns(tx: Queryable, family: CampaignFamily, q: CampaignListQuery): Promise<{ rows: Campaign[]; total: number }> {
  const where = ['c.family = $1'];
  const params: unknown[] = [family];
  if (q.search) {
    params.push(likePattern(q.search));
    where.push(searchAny(['c.name', 'c.description'], `$${params.length}`));
  }
  if (q.state) {
    params.push(q.state);
    where.push(`c.state = $${params.length}`);
  }
  const filter = `where ${where.join(' and ')}`;
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from campaigns c ${filter}`, params);
  const { rows } = await tx.query<Row>(`${CAMPAIGN} ${filter} order by c.created_at desc, c.id desc limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params, q.per_page, (q.page - 1) * q.per_page,
  ]);
  const progress = await progressOf(tx, rows.map((r) => r.id));
  return { rows: rows.map((r) => shape(r, progress.get(r.id)!)), total: count.rows[0].total };
}

export async function getCampaign(tx: Queryable, family: CampaignFamily, id: number): Promise<Campaign | null> {
  const { rows } = await tx.query<Row>(`${CAMPAIGN} where c.id = $1 and c.family = $2`, [id, family]);
  if (!rows[0]) return null;
  return shape(rows[0], (await progressOf(tx, [id])).get(id)!);
}

/** Locks the campaign (state changes and contact writes one at a time); null when the tenant has no such campaign of this family. */
export async function lockCampaign(tx: Queryable, family: CampaignFamily, id: number): Promise<{ id: number; state: CampaignState; purpose: string; hotline_id: number; mode: CampaignMode } | null> {
  const { rows } = await tx.query<{ id: number; state: CampaignState; purpose: string; hotline_id: number; mode: CampaignMode }>(
    'select id, state, purpose, hotline_id, mode from campaigns where id = $1 and family = $2 for update',
    [id, family],
  );
  return rows[0] ?? null;
}

/** The hotline's advertising identity (Decree 91), or null when the tenant has no such hotline. */
export async function hotlineIdentity(tx: Queryable, id: number): Promise<boolean | null> {
  const { rows } = await tx.query<{ advertising_identity: boolean }>('select advertising_identity from pbx_numbers where id = $1', [id]);
  return rows[0] ? rows[0].advertising_identity : null;
}

/** The campaign's questions, in the order asked. */
export async function questionIdsOf(tx: Queryable, campaignId: number): Promise<number[]> {
  const { rows } = await tx.query<{ question_id: number }>('select question_id from campaign_questions where campaign_id = $1 order by position', [campaignId]);
  return rows.map((r) => r.question_id);
}

/** The kind and options of each of `ids` the tenant has (what an automated voice survey can ask). */
export async function questionShapes(tx: Queryable, ids: number[]): Promise<{ id: number; kind: SurveyQuestionKind; options: string[] }[]> {
  if (!ids.length) return [];
  const { rows } = await tx.query<{ id: number; kind: SurveyQuestionKind; options: string[] }>('select id, kind, options from survey_questions where id = any($1::int[])', [ids]);
  return rows;
}

/** Which of `ids` the tenant has in `table` (RLS hides another tenant's rows). */
export async function existing(tx: Queryable, table: 'pbx_time_groups' | 'survey_questions' | 'users' | 'teams', ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const { rows } = await tx.query<{ id: number }>(`select id from ${table} where id = any($1::int[])`, [ids]);
  return new Set(rows.map((r) => r.id));
}

const COLUMNS = (c: CampaignInput) => [c.name, c.description, c.purpose, c.script, c.time_group_id, c.hotline_id, c.retry_busy_min, c.retry_no_answer_min, c.max_attempts, c.mode, c.abandon_cap_pct / 100, c.voice_channels];

export async function insertCampaign(tx: Queryable, tenantId: number, family: CampaignFamily, c: CampaignInput): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into campaigns (tenant_id, family, name, description, purpose, script, time_group_id, hotline_id, retry_busy_min, retry_no_answer_min, max_attempts, mode, abandon_cap, voice_channels)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
    [tenantId, family, ...COLUMNS(c)],
  );
  return rows[0].id;
}

export async function updateCampaign(tx: Queryable, id: number, c: CampaignInput): Promise<void> {
  await tx.query(
    `update campaigns set name = $2, description = $3, purpose = $4, script = $5, time_group_id = $6, hotline_id = $7, retry_busy_min = $8,
        retry_no_answer_min = $9, max_attempts = $10, mode = $11, abandon_cap = $12, voice_channels = $13, updated_at = now() where id = $1`,
    [id, ...COLUMNS(c)],
  );
}

/** The campaign's questions (in order) and agents, replaced by the input's. */
export async function setMembers(tx: Queryable, tenantId: number, id: number, c: CampaignInput): Promise<void> {
  await tx.query('delete from campaign_questions where campaign_id = $1', [id]);
  await tx.query('delete from campaign_agents where campaign_id = $1', [id]);
  await tx.query(
    `insert into campaign_questions (tenant_id, campaign_id, question_id, position)
     select $1, $2, q, p::int from unnest($3::int[]) with ordinality as x(q, p)`,
    [tenantId, id, c.question_ids],
  );
  await tx.query('insert into campaign_agents (tenant_id, campaign_id, user_id) select $1, $2, u from unnest($3::int[]) as x(u)', [tenantId, id, c.agent_ids]);
  await tx.query('insert into campaign_agents (tenant_id, campaign_id, team_id) select $1, $2, t from unnest($3::int[]) as x(t)', [tenantId, id, c.team_ids]);
}

export async function setState(tx: Queryable, id: number, to: CampaignState): Promise<void> {
  await tx.query(
    `update campaigns set state = $2, updated_at = now(),
        started_at = case when $2 = 'running' then coalesce(started_at, now()) else started_at end,
        ended_at = case when $2 = 'ended' then now() else ended_at end
      where id = $1`,
    [id, to],
  );
}

export async function deleteCampaign(tx: Queryable, id: number): Promise<void> {
  await tx.query('delete from campaigns where id = $1', [id]);
}

export async function contactCount(tx: Queryable, campaignId: number): Promise<number> {
  return (await tx.query<{ n: number }>('select count(*)::int as n from campaign_contacts where campaign_id = $1', [campaignId])).rows[0].n;
}

type ContactLine = Omit<CampaignContact, 'call'> & {
  attempt_id: string | null; call_id: string | null; attempt_at: Date | null; call_started_at: Date | null; answered_at: Date | null; billsec: number | null; disposition: string | null;
};

/**
 * A page of contacts, each with its latest call placed after an allowed "Gọi" (ADR 0050: the plan
 * wrote the call's Call-ID on the attempt) and that call's record. The record is looked up by its
 * key (tenant, Call-ID, started_at) within minutes of the attempt, so only one month's partition is read.
 */
export async function listContacts(tx: Queryable, campaignId: number, q: ContactListQuery): Promise<{ rows: ContactLine[]; total: number }> {
  const total = await contactCount(tx, campaignId);
  const { rows } = await tx.query<ContactLine>(
    `select k.id::int, k.number, k.name, k.fields, k.customer_id, k.state, k.attempts, k.result, k.created_at,
            a.id as attempt_id, a.call_id, a.started_at as attempt_at,
            d.started_at as call_started_at, d.answered_at, d.billsec, d.disposition
       from campaign_contacts k
       left join lateral (select a.id, a.call_id, a.started_at, a.tenant_id from campaign_attempts a
                           where a.contact_id = k.id and a.call_id is not null order by a.started_at desc, a.id desc limit 1) a on true
       left join lateral (select d.started_at, d.answered_at, d.billsec, d.disposition from cdrs d
                           where d.tenant_id = a.tenant_id and d.call_id = a.call_id
                             and d.started_at >= a.started_at - interval '1 minute' and d.started_at < a.started_at + interval '10 minutes'
                           order by d.started_at limit 1) d on true
      where k.campaign_id = $1
      order by k.id limit $2 offset $3`,
    [campaignId, q.per_page, (q.page - 1) * q.per_page],
  );
  return { rows: rows.map((r) => ({ ...r, created_at: iso(r.created_at) })), total };
}

export async function clearContacts(tx: Queryable, campaignId: number): Promise<void> {
  await tx.query('delete from campaign_contacts where campaign_id = $1', [campaignId]);
}

/** Which of `numbers` (stored form) the campaign already has. */
export async function numbersInCampaign(tx: Queryable, campaignId: number, numbers: string[]): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const { rows } = await tx.query<{ number: string }>('select number from campaign_contacts where campaign_id = $1 and number = any($2::text[])', [campaignId, numbers]);
  return new Set(rows.map((r) => r.number));
}

/** Rows a statement: 10,000 contacts as one jsonb parameter, no bind-parameter limit near. */
const BATCH = 10_000;
export async function insertContacts(tx: Queryable, tenantId: number, campaignId: number, contacts: ContactRow[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < contacts.length; i += BATCH) {
    const { rows } = await tx.query<{ n: number }>(
      `with added as (
         insert into campaign_contacts (tenant_id, campaign_id, number, name, fields, customer_id)
         select $1, $2, r.number, coalesce(r.name, ''), coalesce(r.fields, '{}'::jsonb), r.customer_id
           from jsonb_to_recordset($3::jsonb) as r(number text, name text, fields jsonb, customer_id int)
         on conflict (campaign_id, number) do nothing returning 1)
       select count(*)::int as n from added`,
      [tenantId, campaignId, JSON.stringify(contacts.slice(i, i + BATCH))],
    );
    added += rows[0].n;
  }
  return added;
}

/** The tenant's customers matching the CRM filter, as candidates (their code and email become fields). */
export async function crmCandidates(tx: Queryable, f: CrmFilter, limit: number): Promise<Candidate[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.data_source_id) add('c.is_datasource = ?', f.data_source_id);
  if (f.project_id) add('c.is_project = ?', f.project_id);
  if (f.profile_status_id) add('c.is_status = ?', f.profile_status_id);
  if (f.department_id) add('u.department_id = ?', f.department_id);
  params.push(limit);
  const { rows } = await tx.query<{ id: number; name: string; phone: string; code: string; email: string }>(
    `select c.id, c.name, c.phone, c.code, c.email from customers c left join users u on u.id = c.user_id
      ${where.length ? `where ${where.join(' and ')}` : ''} order by c.id limit $${params.length}`,
    params,
  );
  return rows.map((r, i) => {
    const fields: Record<string, string> = {};
    if (r.code) fields['Mã khách hàng'] = r.code;
    if (r.email) fields.Email = r.email;
    return { row: i + 1, name: r.name, phone: r.phone, fields, customer_id: r.id };
  });
}

/** Running and paused campaigns asking the question (QuestionUsage). */
export async function activeCampaignsAsking(tx: Queryable, questionId: number): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from campaign_questions q join campaigns c on c.id = q.campaign_id
      where q.question_id = $1 and c.state in ('running', 'paused')`,
    [questionId],
  );
  return rows[0].n;
}

export async function options(tx: Queryable): Promise<CampaignOptions> {
  const all = async <T>(sql: string) => (await tx.query<T & object>(sql)).rows as T[];
  return {
    questions: await all(`select q.id, q.text, c.name as category_name from survey_questions q join survey_categories c on c.id = q.category_id
      where c.active order by c.name, c.id, q.position`),
    agents: await all(`select u.id, coalesce(nullif(u.full_name, ''), u.username) as name,
        (select min(s.extension) from subscribers s where s.user_id = u.id) as extension
      from users u where u.status = 'active' order by 2, u.id`),
    teams: await all('select id, name from teams order by name, id'),
    time_groups: await all('select id, name from pbx_time_groups order by name, id'),
    hotlines: await all('select id, number, advertising_identity from pbx_numbers where active order by number'),
    data_sources: await all('select id, name from data_sources order by name, id'),
    projects: await all('select id, name from projects order by name, id'),
    profile_statuses: await all('select id, name from profile_statuses order by name, id'),
    departments: await all('select id, name from departments order by name, id'),
  };
}
