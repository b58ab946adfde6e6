import { ENTITIES } from '../modules/org/org.entities';
import { PBX_DEFS } from '../modules/pbx/pbx.resources';
import { startTestApp, type TestApp } from '../../test/helpers';

/** The lists whose search is written by hand in their repository (table, searched columns). */
const HAND_WRITTEN: [string, string[]][] = [
  ['users', ['full_name', 'username', 'email', 'phone']],
  ['roles', ['name', 'display_name', 'description']],
  ['subscribers', ['extension', 'display_name']],
];

/** The columns of `table` a list searches directly, as they appear inside fold(…) in an index. */
function searched(search: string[]): string[] {
  return search.flatMap((expr) => {
    const plain = /^[xr]\.(\w+)$/.exec(expr);
    if (plain) return [plain[1]];
    const list = /^words\([xr]\.(\w+)\)$/.exec(expr);
    return list ? [`words(${list[1]})`] : [];
  });
}

describe('every list search is indexed (migration 0011, PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('pg_indexes has a trigram index on fold(column) for every column a list searches on its own table', async () => {
    const { indexes, columns } = await t.db.withSystem(async (tx) => ({
      indexes: (await tx.query<{ tablename: string; indexdef: string }>("select tablename, indexdef from pg_indexes where indexdef like '%gin_trgm_ops%'")).rows,
      columns: (await tx.query<{ table_name: string; column_name: string }>("select table_name, column_name from information_schema.columns where table_schema = 'public'")).rows,
    }));
    const hasColumn = (table: string, col: string) => columns.some((c) => c.table_name === table && c.column_name === col.replace(/^words\((\w+)\)$/, '$1'));
    const wanted = [...HAND_WRITTEN, ...ENTITIES.map((d) => [d.table, searched(d.search)] as const), ...PBX_DEFS.map((d) => [d.table, searched(d.search)] as const)]
      .flatMap(([table, cols]) => cols.filter((c) => hasColumn(table, c)).map((c) => `${table}: fold(${c})`));
    expect(wanted.length).toBeGreaterThan(40);
    const missing = wanted.filter((w) => {
      const [table, expr] = w.split(': ');
      return !indexes.some((i) => i.tablename === table && i.indexdef.includes(`(${expr} gin_trgm_ops)`));
    });
    expect(missing).toEqual([]);
    // Customers search their stored folded text (migration 0011).
    expect(indexes.filter((i) => i.tablename === 'customers' && i.indexdef.includes('(search_text gin_trgm_ops)'))).toHaveLength(1);
  });

  it('users.extension_code is gone (migration 0012): an account’s extension is its subscriber’s', async () => {
    const { rows } = await t.db.withSystem((tx) =>
      tx.query("select column_name from information_schema.columns where table_name = 'users' and column_name = 'extension_code'"),
    );
    expect(rows).toEqual([]);
  });
});
