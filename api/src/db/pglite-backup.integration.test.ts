import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort } from '../../test/pg-cluster';
import { startApiProcess, type ApiProcess } from '../../test/api-process';
import { BACKUP_HEADER, BACKUP_PATH } from '../modules/sip/pglite-backup-route';
import { tarEntries } from './backup';

/**
 * Backups of the embedded PGlite (docs/operations/backups.md, issue 42): a running API (src/main.ts on
 * its own PGlite folder, as npm start runs it) is asked for a snapshot by `npm run backup`
 * (scripts/backup.mjs) while customers are written one after another; `npm run restore` puts it into
 * a new folder; a second API starts on that folder. The restored customers must be exactly those
 * committed before the snapshot (a prefix of the writes: a consistent image, no write half there),
 * the seeded users log in, and the SIP passwords open with the kept key.
 */
const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'scripts', 'backup.mjs');

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', SIP_PASSWORD_KEY: '', BACKUP_SECRET: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

async function token(url: string, maDn: string): Promise<string> {
  const res = await fetch(`${url}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: maDn, username: 'admin', password: 'Admin@123' }) });
  if (res.status !== 200) throw new Error(`login ${maDn}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Every customer name of a tenant that starts with `prefix`, through the API (paged). */
async function customerNames(url: string, maDn: string, bearer: string, search: string): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/t/${maDn}/customers?per_page=100&page=${page}&search=${encodeURIComponent(search)}`, { headers: { authorization: `Bearer ${bearer}` } });
    const body = (await res.json()) as { data: { name: string }[]; meta: { total: number } };
    names.push(...body.data.map((c) => c.name));
    if (names.length >= body.meta.total || body.data.length === 0) return names;
  }
}

const ha1 = async (internalUrl: string, secret: string) => {
  const res = await fetch(`${internalUrl}/internal/sip/credentials?user=101&domain=demo.tongdai.local`, { headers: { 'x-tongdai-internal': secret } });
  return [res.status, await res.text()] as const;
};

describe('PGlite: a snapshot of the running API, restored into a new folder and started on', () => {
  let dir: string;
  let live: ApiProcess | null = null;
  let restored: ApiProcess | null = null;
  const secrets = { live: randomBytes(32).toString('base64url'), restored: randomBytes(32).toString('base64url') };
  const ports = { live: 0, liveInternal: 0, restored: 0, restoredInternal: 0 };
  /** Customer i is `${PREFIX} ${i}`: written one after another, each acknowledged before the next. */
  const PREFIX = 'Khách sao lưu nóng';
  const acked: number[] = [];
  let ackedBeforeBackup = 0;
  let startedBeforeBackupEnded = 0;
  let backup: { code: number | null; out: string };
  let archive: string;
  let restore: { code: number | null; out: string };
  let ha1Live: readonly [number, string];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tongdai-pglite-backup-'));
    [ports.live, ports.liveInternal, ports.restored, ports.restoredInternal] = [await freePort(), await freePort(), await freePort(), await freePort()];
    // A fresh folder: migrations and seed (over 120 s at load 16, test/api-process.ts).
    live = await startApiProcess({
      DATABASE_URL: '', DATA_DIR: join(dir, 'pglite'), PORT: String(ports.live), INTERNAL_PORT: String(ports.liveInternal),
      INTERNAL_SECRET: secrets.live, SIP_PASSWORD_KEY: '', JWT_SECRET: '', BACKUP_SECRET: '', REDIS_URL: '', KAMAILIO_EVAPI: '', TONGDAI_TEST_CLOCK: '',
    }, 300_000);
    ha1Live = await ha1(`http://127.0.0.1:${ports.liveInternal}`, secrets.live);
    const bearer = await token(live.url, 'demo');

    // Writes one after another while the backup runs: each acknowledged before the next starts.
    let writing = true;
    let next = 0;
    let failed: Error | null = null;
    /** Until `n` writes are acknowledged; a writer that failed ends the wait with its error. */
    const acknowledged = async (n: number) => {
      while (acked.length < n) {
        if (failed) throw failed;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const writer = (async () => {
      while (writing) {
        const i = next++;
        const res = await fetch(`${live!.url}/t/demo/customers`, {
          method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
          body: JSON.stringify({ name: `${PREFIX} ${i}`, phone: `09130${String(i).padStart(5, '0')}`, status: 'new' }),
        });
        if (res.status !== 201) throw new Error(`customer ${i}: ${res.status} ${await res.text()}`);
        acked.push(i);
      }
    })().catch((e: Error) => {
      failed = e;
    });
    await acknowledged(5);
    ackedBeforeBackup = acked.length;
    backup = await cli(['backup', '--data-dir', join(dir, 'pglite'), '--port', String(ports.liveInternal), '--out', join(dir, 'backups') + '/']);
    startedBeforeBackupEnded = next;
    await acknowledged(startedBeforeBackupEnded + 3);
    writing = false;
    await writer;
    if (failed) throw failed;
    const files = existsSync(join(dir, 'backups')) ? readdirSync(join(dir, 'backups')) : [];
    archive = join(dir, 'backups', files.find((f) => f.endsWith('.tar.gz')) ?? 'none');

    restore = await cli(['restore', archive, '--data-dir', join(dir, 'restored'), '--keys-from', join(dir, 'pglite')]);
    if (restore.code !== 0) return;
    restored = await startApiProcess({
      DATABASE_URL: '', DATA_DIR: join(dir, 'restored'), PORT: String(ports.restored), INTERNAL_PORT: String(ports.restoredInternal),
      INTERNAL_SECRET: secrets.restored, SIP_PASSWORD_KEY: '', JWT_SECRET: '', BACKUP_SECRET: '', REDIS_URL: '', KAMAILIO_EVAPI: '', TONGDAI_TEST_CLOCK: '',
    }, 300_000);
  }, 900_000); // two API processes on PGlite (the first migrates and seeds a fresh folder), the backup and the restore

  afterAll(async () => {
    await live?.kill();
    await restored?.kill();
    // A killed API's last PGlite writes may still land while its folder goes (as restart-restore does).
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('npm run backup writes an archive of PostgreSQL\'s files only: no key, no recording', () => {
    expect([backup.code, backup.out]).toEqual([0, expect.stringContaining('Đã sao lưu PGlite')]);
    const top = new Set(tarEntries(gunzipSync(readFileSync(archive))).map((e) => e.path.split('/')[0]));
    expect([...top]).toEqual(expect.arrayContaining(['PG_VERSION', 'base', 'global', 'pg_wal', 'pg_xact', 'postgresql.conf', 'pg_hba.conf']));
    for (const kept of ['sip-password-key', 'jwt-secret', 'backup-secret', 'internal-secret', 'recordings', 'postmaster.pid']) expect([...top]).not.toContain(kept);
    // The live folder does hold the keys the archive leaves out.
    expect(readdirSync(join(dir, 'pglite'))).toEqual(expect.arrayContaining(['sip-password-key', 'jwt-secret', 'backup-secret']));
  });

  it('npm run restore loads it into the new folder, copies the keys and checks the SIP key opens the backup', () => {
    expect([restore.code, restore.out]).toEqual([0, expect.stringContaining('khóa SIP mở được mật khẩu SIP của bản sao lưu')]);
    expect(restore.out).toMatch(/doanh nghiệp demo: \d+ tài khoản, \d+ khách hàng/);
    expect(restore.out).toMatch(/doanh nghiệp abc: \d+ tài khoản, \d+ khách hàng/);
    expect(readFileSync(join(dir, 'restored', 'sip-password-key'), 'utf8')).toBe(readFileSync(join(dir, 'pglite', 'sip-password-key'), 'utf8'));
  });

  it('holds exactly the writes committed before the snapshot: every acknowledged one before the backup, none half there', async () => {
    const names = await customerNames(restored!.url, 'demo', await token(restored!.url, 'demo'), PREFIX);
    const got = names.map((n) => Number(n.slice(PREFIX.length + 1))).sort((a, b) => a - b);
    // A prefix 0..k-1 of the writes (each one waited for the one before), with k between what was
    // acknowledged before the backup started and what had started by the time it ended.
    const seen = { restored: got.length, ackedBeforeBackup, startedBeforeBackupEnded };
    expect(got).toEqual([...Array(got.length).keys()]);
    expect(seen.restored).toBeGreaterThanOrEqual(ackedBeforeBackup);
    expect(seen.restored).toBeLessThanOrEqual(startedBeforeBackupEnded);
    // The writes went on while the backup ran (else this proves nothing about a running API).
    expect(startedBeforeBackupEnded).toBeGreaterThan(ackedBeforeBackup + 1);
    if (process.env.BACKUP_DRILL_VERBOSE) console.log(seen, backup.out);
  });

  it('serves the seeded users on the restored folder, keeps tenants apart, and Kamailio gets the same digest hash', async () => {
    const abc = await customerNames(restored!.url, 'abc', await token(restored!.url, 'abc'), PREFIX);
    expect(abc).toEqual([]);
    expect(ha1Live[0]).toBe(200);
    expect(await ha1(`http://127.0.0.1:${ports.restoredInternal}`, secrets.restored)).toEqual(ha1Live);
  });

  it('hands a snapshot only to the backup secret: not to Kamailio\'s, not to a wrong one', async () => {
    const url = `http://127.0.0.1:${ports.liveInternal}${BACKUP_PATH}`;
    const backupSecret = readFileSync(join(dir, 'pglite', 'backup-secret'), 'utf8').trim();
    expect(backupSecret).not.toBe(secrets.live);
    const tries: Record<string, string>[] = [{}, { 'x-tongdai-internal': secrets.live }, { [BACKUP_HEADER]: secrets.live }, { [BACKUP_HEADER]: `${backupSecret}x` }];
    for (const headers of tries) {
      const res = await fetch(url, { headers });
      expect([headers, res.status]).toEqual([headers, 401]);
      await res.arrayBuffer();
    }
    // And the public port has no such route.
    expect((await fetch(`${live!.url}${BACKUP_PATH}`, { headers: { [BACKUP_HEADER]: backupSecret } })).status).toBe(404);
  });

  it('npm run restore refuses a folder with a database, names a wrong or missing SIP key; npm run backup refuses PostgreSQL', async () => {
    const again = await cli(['restore', archive, '--data-dir', join(dir, 'restored')]);
    expect([again.code, again.out]).toEqual([1, expect.stringContaining('already holds a database')]);
    // A key of another installation is named as such, not discovered by the first phone that cannot register.
    const otherKey = await cli(['restore', archive, '--data-dir', join(dir, 'other-key')], { SIP_PASSWORD_KEY: randomBytes(32).toString('hex') });
    expect([otherKey.code, otherKey.out]).toEqual([1, expect.stringContaining('SAI KHÓA')]);
    const noKey = await cli(['restore', archive, '--data-dir', join(dir, 'no-key')]);
    expect([noKey.code, noKey.out]).toEqual([2, expect.stringContaining('CHƯA XONG: thiếu khóa SIP')]);
    const onPostgres = await cli(['backup'], { DATABASE_URL: 'postgres://x@127.0.0.1:1/x' });
    expect([onPostgres.code, onPostgres.out]).toEqual([2, expect.stringContaining('docs/operations/backups.md')]);
  }, 240_000); // three runs of the CLI, each a tsx start and a PGlite load: seconds alone, more at load 15
});
