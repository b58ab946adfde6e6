import type {
  SurveyAudioOption, SurveyCategory, SurveyCategoryInput, SurveyCategoryListQuery, SurveyCategoryOption, SurveyQuestion, SurveyQuestionInput,
  SurveyQuestionListQuery,
} from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';

/** Runs inside withTenant: no query here names a tenant, RLS supplies it. */

type Stamps = { created_at: unknown; updated_at: unknown };
const stamped = <T extends Stamps>(r: T) => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

const CATEGORY = `select c.id, c.name, c.description, c.active, c.created_at, c.updated_at,
    (select count(*)::int from survey_questions q where q.category_id = c.id) as question_count
  from survey_categories c`;

const QUESTION = `select q.id, q.category_id, c.name as category_name, q.kind, q.text, q.options, q.required, q.voice_audio_id, q.position, q.version,
    q.created_at, q.updated_at
  from survey_questions q join survey_categories c on c.id = q.category_id`;

/** A page of rows and the total, from `select` filtered by `where` (params numbered from 1). */
async function page<R extends Stamps>(tx: Queryable, select: string, where: string[], params: unknown[], order: string, q: { page: number; per_page: number }) {
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from (${select} ${filter}) x`, params);
  const { rows } = await tx.query<R>(`${select} ${filter} order by ${order} limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params, q.per_page, (q.page - 1) * q.per_page,
  ]);
  return { rows: rows.map(stamped), total: count.rows[0].total };
}

export async function listCategories(tx: Queryable, q: SurveyCategoryListQuery) {
  const params = q.search ? [likePattern(q.search)] : [];
  return page<SurveyCategory & Stamps>(tx, CATEGORY, q.search ? [searchAny(['c.name', 'c.description'], '$1')] : [], params, 'c.name, c.id', q) as Promise<{ rows: SurveyCategory[]; total: number }>;
}

export async function categoryOptions(tx: Queryable): Promise<SurveyCategoryOption[]> {
  return (await tx.query<SurveyCategoryOption>('select id, name, active from survey_categories order by name, id')).rows;
}

export async function getCategory(tx: Queryable, id: number): Promise<SurveyCategory | null> {
  const { rows } = await tx.query<SurveyCategory & Stamps>(`${CATEGORY} where c.id = $1`, [id]);
  return rows[0] ? (stamped(rows[0]) as SurveyCategory) : null;
}

/** Locks the category (questions are appended to it one at a time); false when the tenant has no such category. */
export async function lockCategory(tx: Queryable, id: number): Promise<boolean> {
  return (await tx.query('select 1 from survey_categories where id = $1 for update', [id])).rows.length > 0;
}

export async function categoryNameTaken(tx: Queryable, name: string, exceptId: number): Promise<boolean> {
  return (await tx.query('select 1 from survey_categories where lower(name) = lower($1) and id <> $2 limit 1', [name, exceptId])).rows.length > 0;
}

export async function insertCategory(tx: Queryable, tenantId: number, c: SurveyCategoryInput): Promise<number> {
  const { rows } = await tx.query<{ id: number }>('insert into survey_categories (tenant_id, name, description, active) values ($1, $2, $3, $4) returning id', [
    tenantId, c.name, c.description, c.active,
  ]);
  return rows[0].id;
}

export async function updateCategory(tx: Queryable, id: number, c: SurveyCategoryInput): Promise<boolean> {
  const { rows } = await tx.query('update survey_categories set name = $2, description = $3, active = $4, updated_at = now() where id = $1 returning id', [
    id, c.name, c.description, c.active,
  ]);
  return rows.length > 0;
}

export async function deleteCategory(tx: Queryable, id: number): Promise<boolean> {
  return (await tx.query('delete from survey_categories where id = $1 returning id', [id])).rows.length > 0;
}

export async function listQuestions(tx: Queryable, q: SurveyQuestionListQuery): Promise<{ rows: SurveyQuestion[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    where.push(searchAny(['q.text'], `$${params.length}`));
  }
  if (q.category_id) {
    params.push(q.category_id);
    where.push(`q.category_id = $${params.length}`);
  }
  return page(tx, QUESTION, where, params, 'c.name, c.id, q.position', q) as Promise<{ rows: SurveyQuestion[]; total: number }>;
}

export async function getQuestion(tx: Queryable, id: number): Promise<SurveyQuestion | null> {
  const { rows } = await tx.query<SurveyQuestion & Stamps>(`${QUESTION} where q.id = $1`, [id]);
  return rows[0] ? (stamped(rows[0]) as SurveyQuestion) : null;
}

/** The tenant's greetings a question may play (RLS: the tenant's only), by name. */
export async function audioOptions(tx: Queryable): Promise<SurveyAudioOption[]> {
  return (await tx.query<SurveyAudioOption>("select id, name from pbx_audio where kind = 'greeting' order by lower(name), id")).rows;
}

/** Whether `id` is one of the tenant's greetings (another tenant's is invisible under RLS). */
export async function greetingExists(tx: Queryable, id: number): Promise<boolean> {
  return (await tx.query("select 1 from pbx_audio where id = $1 and kind = 'greeting'", [id])).rows.length > 0;
}

/** The question at the end of its category. */
export async function insertQuestion(tx: Queryable, tenantId: number, q: SurveyQuestionInput): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into survey_questions (tenant_id, category_id, kind, text, options, required, voice_audio_id, position)
     values ($1, $2, $3, $4, $5::jsonb, $6, $7, (select coalesce(max(position), 0) + 1 from survey_questions where category_id = $2)) returning id`,
    [tenantId, q.category_id, q.kind, q.text, JSON.stringify(q.options), q.required, q.voice_audio_id],
  );
  return rows[0].id;
}

/**
 * What is asked changing (kind, text, options) makes a new version; a question moved to another
 * category goes to its end, and the one it left closes the gap. Its recording is how it is said, not
 * what is asked: changing it makes no new version.
 */
export async function updateQuestion(tx: Queryable, before: SurveyQuestion, q: SurveyQuestionInput): Promise<void> {
  const moved = before.category_id !== q.category_id;
  await tx.query(
    `update survey_questions set category_id = $2, kind = $3, text = $4, options = $5::jsonb, required = $6, voice_audio_id = $8,
        version = version + case when kind <> $3 or text <> $4 or options <> $5::jsonb then 1 else 0 end,
        position = case when $7 then (select coalesce(max(position), 0) + 1 from survey_questions where category_id = $2) else position end,
        updated_at = now()
      where id = $1`,
    [before.id, q.category_id, q.kind, q.text, JSON.stringify(q.options), q.required, moved, q.voice_audio_id],
  );
  if (moved) await closeGap(tx, before.category_id, before.position);
}

export async function deleteQuestion(tx: Queryable, q: SurveyQuestion): Promise<void> {
  await tx.query('delete from survey_questions where id = $1', [q.id]);
  await closeGap(tx, q.category_id, q.position);
}

async function closeGap(tx: Queryable, categoryId: number, position: number): Promise<void> {
  await tx.query('update survey_questions set position = position - 1 where category_id = $1 and position > $2', [categoryId, position]);
}

/** Swaps the question with its neighbour above (up) or below (down); false when it is already first/last. */
export async function moveQuestion(tx: Queryable, q: SurveyQuestion, direction: 'up' | 'down'): Promise<boolean> {
  const neighbour = direction === 'up' ? q.position - 1 : q.position + 1;
  const { rows } = await tx.query(
    `update survey_questions set position = case when id = $1 then $3 else $2 end, updated_at = now()
      where category_id = $4 and (id = $1 or position = $3) and exists (select 1 from survey_questions where category_id = $4 and position = $3)
      returning id`,
    [q.id, q.position, neighbour, q.category_id],
  );
  return rows.length === 2;
}
