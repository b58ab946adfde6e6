import { explaining, startTestApp, type TestApp } from '../../../test/helpers';
import { listRows } from './pbx.repository';
import { PBX_DEFS } from './pbx.resources';

/** Migration 0011 on a PBX list (the check that every list's columns are indexed: db/search-indexes). */
describe('PBX list search and its trigram indexes (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the ring group list, searched as the API searches it, can use the trigram indexes (member extensions too)', async () => {
    const ringGroups = PBX_DEFS.find((d) => d.table === 'pbx_ring_groups')!;
    const plans: string[] = [];
    // As app_system: under RLS the planner cannot use them (non-leakproof LIKE, ADR 0014 "Known limit").
    await t.db.withSystem(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      await listRows(explaining(tx, plans), ringGroups, { search: 'dac biet', page: 1, page_size: 10 } as never);
    });
    for (const index of ['pbx_ring_groups_name_fold_trgm', 'pbx_ring_groups_description_fold_trgm', 'pbx_ring_groups_extensions_fold_trgm']) expect(plans[0]).toContain(index);
  });
});
