import type { HolidayOverride, HolidayOverrideInput } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';

/** SQL of the tenant's holiday overrides (migration 0066). Runs inside withTenant. */

// The day as text: node-postgres reads a `date` as a local midnight, which moves it in zones west of UTC.
const COLUMNS = `id, to_char(day, 'YYYY-MM-DD') as date, action, name, created_at, updated_at`;
type Row = Omit<HolidayOverride, 'created_at' | 'updated_at'> & { created_at: unknown; updated_at: unknown };
const present = (r: Row): HolidayOverride => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

/** The overrides of the years [from, to], by day. */
export async function overridesOfYears(tx: Queryable, from: number, to: number): Promise<HolidayOverride[]> {
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS} from pbx_holiday_overrides where day >= make_date($1, 1, 1) and day < make_date($2 + 1, 1, 1) order by day`,
    [from, to],
  );
  return rows.map(present);
}

export async function overrideById(tx: Queryable, id: number): Promise<HolidayOverride | null> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from pbx_holiday_overrides where id = $1`, [id]);
  return rows[0] ? present(rows[0]) : null;
}

/** Every override of the tenant, newest day first. */
export async function allOverrides(tx: Queryable): Promise<HolidayOverride[]> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from pbx_holiday_overrides order by day desc, id desc`);
  return rows.map(present);
}

export async function insertOverride(tx: Queryable, tenantId: number, x: HolidayOverrideInput): Promise<HolidayOverride> {
  const { rows } = await tx.query<Row>(
    `insert into pbx_holiday_overrides (tenant_id, day, action, name) values ($1, $2::date, $3, $4) returning ${COLUMNS}`,
    [tenantId, x.date, x.action, x.action === 'remove' ? '' : x.name],
  );
  return present(rows[0]);
}

export async function updateOverride(tx: Queryable, id: number, x: HolidayOverrideInput): Promise<HolidayOverride | null> {
  const { rows } = await tx.query<Row>(
    `update pbx_holiday_overrides set day = $2::date, action = $3, name = $4, updated_at = now() where id = $1 returning ${COLUMNS}`,
    [id, x.date, x.action, x.action === 'remove' ? '' : x.name],
  );
  return rows[0] ? present(rows[0]) : null;
}

export async function deleteOverride(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('delete from pbx_holiday_overrides where id = $1 returning 1', [id]);
  return rows.length > 0;
}
