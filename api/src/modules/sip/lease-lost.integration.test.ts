import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { seededDatabase } from '../../../test/helpers';
import { startApiProcess, until, type ApiProcess } from '../../../test/api-process';
import { freePort } from '../../../test/pg-cluster';
import { CALL_PLANE_LOCK } from './call-plane-lease';

/**
 * Never two call planes (ADR 0059): a holder whose lease session ended while it could not notice (its
 * process stopped: a frozen VM, a long GC pause, SIGSTOP here) finds, once it runs again, that the
 * standby took the calls over meanwhile — and exits (main.ts onLost), to be started again as a standby,
 * instead of following the calls a second time. Two API processes (src/main.ts) on one PostgreSQL.
 */
describe('a holder that lost its lease while frozen stops; the standby keeps the call plane', () => {
  let fresh: { url: string; drop(): Promise<void> };
  const apis: ApiProcess[] = [];
  const internal: string[] = [];
  let dir = '';

  beforeAll(async () => {
    fresh = await seededDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-lease-'));
    const shared = { DATABASE_URL: fresh.url, JWT_SECRET: randomBytes(32).toString('hex'), SIP_PASSWORD_KEY: process.env.SIP_PASSWORD_KEY!, INTERNAL_SECRET: process.env.INTERNAL_SECRET!, REDIS_URL: '', KAMAILIO_EVAPI: '' };
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    // One after the other: the first holds the lease before the second starts.
    for (const i of [0, 1]) {
      apis.push(await startApiProcess({ ...shared, PORT: String(ports[2 * i]), INTERNAL_PORT: String(ports[2 * i + 1]), DATA_DIR: join(dir, `data-${i}`) }));
      internal.push(`http://127.0.0.1:${ports[2 * i + 1]}/internal/sip`);
    }
  }, 300_000);

  afterAll(async () => {
    for (const api of apis) {
      if (api.proc.signalCode === 'SIGSTOP' || api.proc.exitCode === null) api.proc.kill('SIGCONT');
      await api.kill();
    }
    await fresh?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const callPlane = (i: number) => fetch(`${internal[i]}/calls`, { headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! } }).then((r) => r.status, () => 0);

  it('the frozen holder\'s session ended: the standby takes the call plane; thawed, the old holder exits 1 and says why', async () => {
    expect([await callPlane(0), await callPlane(1)]).toEqual([200, 503]);
    const [holder, standby] = apis;
    const exited = new Promise<number | null>((resolve) => holder.proc.once('exit', (code) => resolve(code)));
    holder.proc.kill('SIGSTOP');
    // The holder's lease session ends (what a network partition or an idle-session killer does), the lock with it.
    const admin = new Client({ connectionString: fresh.url });
    await admin.connect();
    try {
      const ended = await admin.query<{ ended: boolean }>(
        // This database's lock only: pg_locks is the whole server's, where other suites' instances hold theirs.
        `select pg_terminate_backend(pid) as ended from pg_locks where locktype = 'advisory' and granted and classid = $1 and objid = $2
           and database = (select oid from pg_database where datname = current_database())`,
        [Math.floor(CALL_PLANE_LOCK / 2 ** 32), CALL_PLANE_LOCK % 2 ** 32],
      );
      expect(ended.rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }
    await until('the standby takes the call plane', () => callPlane(1), (s) => s === 200, 15_000);
    holder.proc.kill('SIGCONT');
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000))]);
    expect(code).toBe(1);
    expect(holder.log.join('')).toContain('The call plane lease is held by another API instance now: stopping, to be started again as a standby');
    // The one call plane left answers, and so does its public API.
    expect(await callPlane(1)).toBe(200);
    expect((await fetch(`${standby.url}/health`)).status).toBe(200);
  }, 60_000);
});
