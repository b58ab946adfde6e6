import type { Db } from '../../db/db';
import { openPostgres } from '../../db/postgres';
import { freshDatabase } from '../../../test/helpers';
import { handOut } from './work.repository';
import { openPgliteFromImage } from '../../../test/pglite-image';

/**
 * THE hand-out statement (ADR 0050) on both engines the API runs on: agents asking at once never get
 * the same contact (PostgreSQL: skip locked under concurrent transactions; PGlite: one connection,
 * the transactions take turns), and the dialer to come shares this statement.
 */
const ENGINES: Record<'postgres' | 'pglite', () => Promise<{ db: Db; close(): Promise<void> }>> = {
  postgres: async () => {
    const fresh = await freshDatabase();
    // 40 transactions at once take turns on 12 connections: at load 12 the last waited more than the API's
    // 3 s for one (ci1 of the twenty-ninth session); the race, not the wait, is what this file tests.
    const db = await openPostgres(fresh.url, 12, undefined, 30_000);
    return { db, close: async () => (await db.close(), await fresh.drop()) };
  },
  pglite: async () => {
    const db = await openPgliteFromImage('migrated');
    return { db, close: () => db.close() };
  },
};

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('the contact hand-out on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;
  let tenant: number;
  let campaign: number;
  beforeAll(async () => {
    ({ db, close } = await ENGINES[engine]());
    [tenant, campaign] = await db.withSystem(async (tx) => {
      const t = (await tx.query<{ id: number }>("insert into tenants (ma_dn, name) values ('phat', 'Công ty Phát') returning id")).rows[0].id;
      const hotline = (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873007001') returning id", [t])).rows[0].id;
      const c = (await tx.query<{ id: number }>(
        "insert into campaigns (tenant_id, family, name, purpose, state, hotline_id) values ($1, 'survey', 'Phát', 'care', 'running', $2) returning id", [t, hotline])).rows[0].id;
      await tx.query(
        `insert into campaign_contacts (tenant_id, campaign_id, number, next_at) select $1, $2, '8491' || lpad(i::text, 7, '0'), now() - interval '1 minute'
           from generate_series(1, 40) as i`,
        [t, c],
      );
      return [t, c];
    });
  }, 180_000); // PGlite's start and migrations: 72 s in a loaded CI run (ci3 of 2026-11-26)
  afterAll(() => close());

  it('gives 40 contacts to 4 agents × 10 requests at once, each contact exactly once', async () => {
    const at = new Date();
    const got = await Promise.all(
      Array.from({ length: 40 }, (_, i) => db.withTenant(tenant, async (tx) => (await handOut(tx, campaign, 1 + (i % 4), at, 120))?.id ?? null)),
    );
    const ids = got.filter((x): x is number => x !== null);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(await db.withTenant(tenant, (tx) => handOut(tx, campaign, 1, at, 120))).toBeNull();
    // The leases run out: the same statement hands them out again.
    const later = await db.withTenant(tenant, (tx) => handOut(tx, campaign, 2, new Date(at.getTime() + 121_000), 120));
    expect(later).not.toBeNull();
  });
});
