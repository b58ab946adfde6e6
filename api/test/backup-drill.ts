import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { findBin } from './pg-cluster';

/**
 * What the backup drills share (docs/operations/backups.md, issue 42): the page itself, the
 * PostgreSQL client programs they need (a drill that cannot run fails, naming what is missing: a
 * backup nobody restored is not a backup), and a fingerprint of a database's contents.
 */
export const BACKUPS_DOC = resolve(__dirname, '../../docs/operations/backups.md');
export const backupsDoc = (): string => readFileSync(BACKUPS_DOC, 'utf8');

/** The programs, found as the cluster's own are (PATH, else /usr/lib/postgresql/<newest>/bin); throws naming each one missing. */
export function requireBins<N extends string>(...names: N[]): Record<N, string> {
  const found = Object.fromEntries(names.map((n) => [n, findBin(n)])) as Record<N, string | null>;
  const missing = names.filter((n) => !found[n]);
  if (missing.length) {
    throw new Error(
      `The backup drill needs ${missing.join(', ')}, not found on PATH nor in /usr/lib/postgresql/*/bin: ` +
        'install the PostgreSQL client programs (apt-get install -y postgresql-client, or postgresql) — a drill that cannot run fails.',
    );
  }
  return found as Record<N, string>;
}

/** Runs a program to its end; stdin from a file, stdout to a file, when given. Rejects with its stderr on a non-zero exit. */
export function run(bin: string, args: string[], io: { stdinFile?: string; stdoutFile?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const stdin = io.stdinFile ? openSync(io.stdinFile, 'r') : 'pipe';
    const stdout = io.stdoutFile ? openSync(io.stdoutFile, 'w') : 'pipe';
    const child = spawn(bin, args, { stdio: [stdin, stdout, 'pipe'], env: io.env ?? process.env });
    if (typeof stdin === 'number') closeSync(stdin);
    if (typeof stdout === 'number') closeSync(stdout);
    let out = '';
    let err = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    if (child.stdin) child.stdin.end(io.input ?? '');
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolveRun({ stdout: out, stderr: err }) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Every table's rows (count and md5 of the rows as text, in order), every sequence's position, and
 * what guards the tenants (row-level security flags, policies, grants, functions' owners, triggers),
 * read as the superuser: two databases with equal fingerprints hold the same data under the same rules.
 */
export async function fingerprint(url: string): Promise<{ tables: Record<string, string>; sequences: Record<string, string>; guards: Record<string, unknown[]> }> {
  return withClient(url, async (c) => {
    const { rows: tables } = await c.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    );
    const tableRows: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await c.query<{ n: number; md5: string | null }>(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as md5 from public.${JSON.stringify(name)} t`,
      );
      tableRows[name] = `${rows[0].n} ${rows[0].md5}`;
    }
    const { rows: seqs } = await c.query<{ name: string; at: string }>(
      `select sequencename as name, coalesce(last_value::text, 'unused') as at from pg_sequences where schemaname = 'public' order by 1`,
    );
    const q = async (sql: string) => (await c.query(sql)).rows;
    const guards = {
      rls: await q(`select c.relname, c.relkind, c.relrowsecurity, c.relforcerowsecurity, c.relacl::text as acl from pg_class c
                      join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p', 'S', 'v', 'm') order by 1`),
      policies: await q(`select tablename, policyname, permissive, roles::text, cmd, qual, with_check from pg_policies where schemaname = 'public' order by 1, 2`),
      functions: await q(`select p.proname, pg_get_function_identity_arguments(p.oid) as args, pg_get_userbyid(p.proowner) as owner, p.prosecdef, p.proacl::text as acl
                            from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1, 2`),
      triggers: await q(`select tgrelid::regclass::text as rel, tgname, tgenabled from pg_trigger where not tgisinternal order by 1, 2`),
      extensions: await q(`select extname from pg_extension order by 1`),
      owners: await q(`select c.relname, pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
                         where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`),
    };
    return { tables: tableRows, sequences: Object.fromEntries(seqs.map((s) => [s.name, s.at])), guards };
  });
}

/** The tables that carry tenant_id (partitions through their parent): the ones row-level security must guard. */
export async function tenantTables(url: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
        where ns.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
        order by 1`,
    );
    return rows.map((r) => r.name);
  });
}

/** The text between `start` and the next `end` in the page (exclusive); throws when the page has no such part. */
export function docPart(doc: string, start: string, end: string): string {
  const from = doc.indexOf(start);
  if (from < 0) throw new Error(`docs/operations/backups.md no longer has ${JSON.stringify(start)}: the drill runs what the page says`);
  const to = doc.indexOf(end, from + start.length);
  if (to < 0) throw new Error(`docs/operations/backups.md: no ${JSON.stringify(end)} after ${JSON.stringify(start)}`);
  return doc.slice(from + start.length, to);
}
