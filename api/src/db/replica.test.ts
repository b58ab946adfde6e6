import { reportsReplicaUrl, whereIs } from './replica';

describe('REPORTS_DATABASE_URL at start-up (issue 42)', () => {
  const primary = 'postgres://tongdai:secret@db-primary:5432/tongdai';
  const replica = 'postgres://tongdai:secret@db-replica:5432/tongdai';

  it('is nothing when unset or empty', () => {
    expect(reportsReplicaUrl({ DATABASE_URL: primary })).toBeUndefined();
    expect(reportsReplicaUrl({ DATABASE_URL: primary, REPORTS_DATABASE_URL: ' ' })).toBeUndefined();
    expect(reportsReplicaUrl({})).toBeUndefined();
  });

  it('is the replica beside a PostgreSQL primary', () => {
    expect(reportsReplicaUrl({ DATABASE_URL: primary, REPORTS_DATABASE_URL: replica })).toBe(replica);
    expect(reportsReplicaUrl({ DATABASE_URL: primary, REPORTS_DATABASE_URL: 'postgresql://r/tongdai' })).toBe('postgresql://r/tongdai');
  });

  it('refuses a replica without DATABASE_URL (the embedded database has none), saying why', () => {
    expect(() => reportsReplicaUrl({ REPORTS_DATABASE_URL: replica })).toThrow(/^REPORTS_DATABASE_URL is set but DATABASE_URL is not: .*Set DATABASE_URL too, or unset REPORTS_DATABASE_URL\.$/);
  });

  it('refuses what cannot be a replica: not a postgres URL, or the primary itself', () => {
    expect(() => reportsReplicaUrl({ DATABASE_URL: primary, REPORTS_DATABASE_URL: 'mysql://r/tongdai' })).toThrow(/must be a postgres:\/\/ URL/);
    expect(() => reportsReplicaUrl({ DATABASE_URL: primary, REPORTS_DATABASE_URL: primary })).toThrow(/names DATABASE_URL itself/);
  });

  it('names a server in the log without its credentials', () => {
    expect(whereIs(replica)).toBe('db-replica:5432/tongdai');
    expect(whereIs('postgres://u:p@10.0.0.7/reports')).toBe('10.0.0.7:5432/reports');
  });
});
