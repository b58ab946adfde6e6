import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { mp3 } from '@tongdai/testkit/pbx-kit';
import { bearer, DEMO, INTERNAL_HEADERS, login, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';
import { LocalRecordingStore, signRecordingTicket } from './recordings.service';

/**
 * The recordings' storage full (issue 41), on a real full filesystem: a 256 KiB tmpfs mounted for
 * this file (root only: the test fails saying so otherwise) as the store, filled up. The media
 * worker's upload answers 507 (it keeps the file in its spool and tries again), /health says the
 * storage is full since when, and the next upload once there is space again clears it. The tenant's
 * admins (setting.view) read the same state (GET /recording-storage) and hear its changes on their
 * events socket, for the shell's alarm bar; an agent does neither.
 */
let t: TestApp;
let internal: FastifyInstance;
let mnt: string;
let tenantId: number;

const upload = (callId: string, body: Buffer) =>
  internal.inject({
    method: 'POST',
    url: `/internal/sip/media/recording?${new URLSearchParams({ call_id: callId, ticket: signRecordingTicket(tenantId, callId), started_at: new Date().toISOString(), duration: '5' })}`,
    headers: { ...INTERNAL_HEADERS, 'content-type': 'audio/mpeg' },
    payload: body,
  });
const health = async () => (await t.app.inject({ url: '/health' })).json() as { status: string; recordings?: string; recordings_full_since?: string };

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('A full filesystem needs a tmpfs mount: run this test as root (npm test does)');
  mnt = mkdtempSync(join(tmpdir(), 'tongdai-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]);
  const store = new LocalRecordingStore(mnt);
  t = await startTestApp({ recordingStore: store, recordingSweepMs: null });
  internal = buildInternalServer(t.db, { calls: { recordingStore: store } });
  tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
});

afterAll(async () => {
  await internal?.close();
  await t?.close();
  if (mnt) {
    execFileSync('umount', [mnt]);
    rmSync(mnt, { recursive: true, force: true });
  }
});

it('an upload that meets a full disk answers 507, /health says so, and the first upload stored once there is space clears it', async () => {
  expect(await health()).toMatchObject({ status: 'ok' });
  // The filesystem filled to the last block (a write past it is ENOSPC).
  const filler = join(mnt, 'filler');
  expect(() => writeFileSync(filler, Buffer.alloc(512 * 1024))).toThrow(/ENOSPC/);
  const before = Date.now();
  const refused = await upload('full-1', mp3(10, true));
  expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 507, body: { error: 'STORAGE_FULL' } });
  const h = await health();
  expect(h).toMatchObject({ status: 'degraded', recordings: 'full' });
  expect(new Date(h.recordings_full_since!).getTime()).toBeGreaterThanOrEqual(before - 1000);
  // Calls' other records are not touched: the API still serves, only recordings wait.
  expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200);
  // Space again: the worker's retry is stored, and the alarm clears.
  rmSync(filler);
  const stored = await upload('full-1', mp3(10, true));
  expect(stored.statusCode).toBe(201);
  expect(await health()).toEqual({ status: 'ok', db: 'postgres' });
});

it("the tenant's admin reads and hears the storage full and back (the shell's alarm); an agent neither", async () => {
  const [adminToken, staffToken] = [await login(t.app, 'demo', DEMO.admin), await login(t.app, 'demo', DEMO.staff)];
  const state = async (token: string) => {
    const res = await t.app.inject({ url: '/t/demo/recording-storage', headers: bearer(token) });
    return { status: res.statusCode, body: res.json() as { data?: { full_since: string | null }; error?: string } };
  };
  const open = (token: string) => t.app.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } });
  const [adminWs, staffWs] = [await open(adminToken), await open(staffToken)];
  const heard: Record<'admin' | 'staff', unknown[]> = { admin: [], staff: [] };
  adminWs.on('message', (m: Buffer) => heard.admin.push(JSON.parse(m.toString())));
  staffWs.on('message', (m: Buffer) => heard.staff.push(JSON.parse(m.toString())));
  const adminHeard = (n: number) => new Promise<void>((resolve) => {
    const check = () => (heard.admin.length >= n ? resolve() : adminWs.once('message', () => setImmediate(check)));
    check();
  });
  try {
    expect(await state(adminToken)).toEqual({ status: 200, body: { data: { full_since: null } } });
    expect((await state(staffToken)).status).toBe(403);

    const filler = join(mnt, 'filler');
    expect(() => writeFileSync(filler, Buffer.alloc(512 * 1024))).toThrow(/ENOSPC/);
    expect((await upload('full-2', mp3(10, true))).statusCode).toBe(507);
    await adminHeard(1);
    const since = (await health()).recordings_full_since!;
    expect(await state(adminToken)).toEqual({ status: 200, body: { data: { full_since: since } } });
    expect(heard.admin).toEqual([{ kind: 'tongdai.recording-storage', version: 1, full_since: since }]);
    // A second refusal while full is no news: nothing more is sent.
    expect((await upload('full-3', mp3(10, true))).statusCode).toBe(507);

    rmSync(filler);
    expect((await upload('full-2', mp3(10, true))).statusCode).toBe(201);
    await adminHeard(2);
    expect(heard.admin[1]).toEqual({ kind: 'tongdai.recording-storage', version: 1, full_since: null });
    expect(await state(adminToken)).toEqual({ status: 200, body: { data: { full_since: null } } });
    expect((await state(staffToken)).status).toBe(403);
    // The agent's socket, open all along, was told nothing.
    expect(heard.staff).toEqual([]);
  } finally {
    adminWs.terminate();
    staffWs.terminate();
  }
});
