import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { RECORDING_API, RECORDING_MSG, VOICEMAIL_API, type CallReportRow } from '@tongdai/contracts';
import { toneWav } from '@tongdai/testkit/wav';
import { mp3 } from '@tongdai/testkit/pbx-kit';
import { INTERNAL_HEADERS, startTestApp, type TestApp } from '../../../test/helpers';
import { REPORT_DAY, seedReportCalls, type ReportFixture } from '../reports/reports.fixture';
import { buildInternalServer } from '../sip/internal-server';
import { LocalRecordingStore, scheduleRecordingSweep, signRecordingTicket, sweepRecordings } from './recordings.service';

/**
 * Issue 16, the API's half of call recording on a real PostgreSQL: the media worker's upload
 * (a ticket the API signed names the tenant), the files in a store, the player's and the
 * download's access (tenant, permission, the call history's scope), the call-history rows'
 * `recording`, and the retention sweep. The fixture's calls (reports.fixture.ts): c1 answered by
 * 102 (the staff member), c5 answered by 101 (the admin); abc's a1.
 */
let t: TestApp;
let internal: FastifyInstance;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];
let dir: string;
let store: LocalRecordingStore;

const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
const upload = (q: Record<string, string>, body: Buffer, type = 'audio/mpeg') =>
  internal.inject({ method: 'POST', url: `/internal/sip/media/recording?${new URLSearchParams(q)}`, headers: { ...INTERNAL_HEADERS, 'content-type': type }, payload: body });
const query = (tenantId: number, callId: string, extra: Record<string, string> = {}) => ({
  call_id: callId, ticket: signRecordingTicket(tenantId, callId), started_at: `${REPORT_DAY}T02:00:05.000Z`, duration: '95.5', ...extra,
});
const get = (url: string, who: keyof ReportFixture['h']) => t.app.inject({ url: `/t/${who === 'abcAdmin' ? 'abc' : 'demo'}/${url}`, headers: h[who] });
/** Every file in the store's folder, as keys. */
const files = (): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort() : [];

const c1Mp3 = mp3(40, true);
let c1: number;
let c5: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tongdai-recordings-'));
  store = new LocalRecordingStore(dir);
  t = await startTestApp({ recordingStore: store, recordingSweepMs: null });
  ({ h, ids } = await seedReportCalls(t));
  internal = buildInternalServer(t.db, { calls: { recordingStore: store } });
  // The staff member (102, no report.view) may listen, not download.
  const [role] = await sys<{ id: number }>(`insert into roles (tenant_id, name) values ($1, 'Nghe ghi âm') returning id`, [ids.demo]);
  await sys(`insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions where name = 'recording.listen'`, [ids.demo, role.id]);
  await sys('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [ids.demo, ids.staffId, role.id]);
});
afterAll(async () => {
  await internal?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the media worker uploads a call recording', () => {
  it('with the ticket the API signed: the file is stored, then its row; the player gets the same bytes', async () => {
    const res = await upload(query(ids.demo, 'c1'), c1Mp3);
    expect(res.statusCode).toBe(201);
    c1 = res.json().id;
    expect(c1).toBeGreaterThan(0);
    const [row] = await sys<{ tenant_id: number; call_id: string; duration_seconds: string; size_bytes: number; storage: string; storage_key: string; started_at: Date }>(
      'select * from call_recordings where id = $1', [c1]);
    expect(row).toMatchObject({ tenant_id: ids.demo, call_id: 'c1', duration_seconds: '95.50', size_bytes: c1Mp3.length, storage: 'local' });
    expect(row.started_at.toISOString()).toBe(`${REPORT_DAY}T02:00:05.000Z`);
    expect(files()).toEqual([row.storage_key]);
    expect(row.storage_key.startsWith(`${ids.demo}/`)).toBe(true);

    const audio = await get(RECORDING_API.audio(c1), 'admin');
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(audio.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(audio.rawPayload, c1Mp3)).toBe(0);
  });

  it('a retried upload of the same call replaces its file and row (one recording per call)', async () => {
    const before = files();
    // Past Fastify's 1 MB default: the upload has its own limit (200 MB).
    const again = mp3(6000);
    expect(again.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await upload(query(ids.demo, 'c1', { duration: '47' }), again);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: c1 });
    expect(files()).toHaveLength(1);
    expect(files()).not.toEqual(before);
    expect(Buffer.compare((await get(RECORDING_API.audio(c1), 'admin')).rawPayload, again)).toBe(0);
    // Back to the first file for the tests below.
    expect((await upload(query(ids.demo, 'c1'), c1Mp3)).statusCode).toBe(201);
    c5 = (await upload(query(ids.demo, 'c5'), mp3(10))).json().id;
    expect(files()).toHaveLength(2);
  });

  it('a forged ticket, another call’s or another tenant’s is 403; a bad query, an empty body or no MP3 is 400; nothing is stored', async () => {
    const before = files();
    const forged = signRecordingTicket(ids.demo, 'c4').replace(/^\d+\./, `${ids.abc}.`);
    for (const q of [
      query(ids.demo, 'c4', { ticket: forged }),
      query(ids.demo, 'c4', { ticket: signRecordingTicket(ids.demo, 'c3') }),
      query(ids.abc, 'c4', { ticket: signRecordingTicket(ids.abc, 'a1') }),
      query(ids.demo, 'c4', { ticket: 'garbage' }),
    ]) {
      const res = await upload(q, mp3(5));
      expect([res.statusCode, res.json()]).toEqual([403, { error: 'BAD_TICKET' }]);
    }
    for (const [q, body, error] of [
      [query(ids.demo, 'c4', { duration: 'abc' }), mp3(5), 'BAD_REQUEST'],
      [query(ids.demo, 'c4', { started_at: 'hôm qua' }), mp3(5), 'BAD_REQUEST'],
      [{ call_id: 'c4', started_at: `${REPORT_DAY}T05:00:00Z`, duration: '1' }, mp3(5), 'BAD_REQUEST'],
      [query(ids.demo, 'c4'), Buffer.alloc(0), 'BAD_REQUEST'],
      [query(ids.demo, 'c4'), Buffer.from('RIFF....WAVEfmt not an mp3'), 'NOT_MP3'],
    ] as const) {
      const res = await upload(q, body);
      expect([res.statusCode, res.json()]).toEqual([400, { error }]);
    }
    // Without the internal listener's secret nothing is read at all.
    const open = await internal.inject({ method: 'POST', url: `/internal/sip/media/recording?${new URLSearchParams(query(ids.demo, 'c4'))}`, headers: { 'content-type': 'audio/mpeg' }, payload: mp3(5) });
    expect(open.statusCode).toBe(401);
    // A ticket of a tenant that no longer exists: the row cannot be written, so the file goes too.
    const gone = await upload(query(987_654, 'c4'), mp3(5));
    expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'NO_TENANT' }]);
    expect(files()).toEqual(before);
    expect(await sys('select 1 from call_recordings where call_id = $1', ['c4'])).toEqual([]);
  });
});

describe('who may hear and download a recording', () => {
  it('the player: another tenant’s id is not found, a user without recording.listen is refused', async () => {
    const foreign = await get(RECORDING_API.audio(c1), 'abcAdmin');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().details).toEqual([{ field: 'id', message: RECORDING_MSG.notFound }]);
    expect((await get(RECORDING_API.audio(c1), 'manager')).statusCode).toBe(403);
    expect((await get(RECORDING_API.audio(c1), 'noExt')).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/t/demo/${RECORDING_API.audio(c1)}` })).statusCode).toBe(401);
    expect((await get(RECORDING_API.audio(999_999), 'admin')).statusCode).toBe(404);
    expect((await get('recordings/abc/audio', 'admin')).statusCode).toBe(404);
  });

  it('an agent without report.view hears the recording of their own call, not another agent’s', async () => {
    const own = await get(RECORDING_API.audio(c1), 'staff');
    expect(own.statusCode).toBe(200);
    expect(Buffer.compare(own.rawPayload, c1Mp3)).toBe(0);
    const other = await get(RECORDING_API.audio(c5), 'staff');
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(RECORDING_MSG.notFound);
    // The admin (report.view) hears every call of the tenant.
    expect((await get(RECORDING_API.audio(c5), 'admin')).statusCode).toBe(200);
  });

  it('the download needs recording.download and names the file by the call (Vietnam time, the parties)', async () => {
    expect((await get(RECORDING_API.download(c1), 'staff')).statusCode).toBe(403);
    const res = await get(RECORDING_API.download(c1), 'admin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['cache-control']).toBe('no-store');
    // c1: bridged 02:00:05 UTC = 09:00:05 in Vietnam; the customer (shown as 0…) called the hotline.
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ghi-am-20260310-090005-0[0-9]{9}-02873000001\.mp3"$/);
    expect(Buffer.compare(res.rawPayload, c1Mp3)).toBe(0);
    expect((await get(RECORDING_API.download(c1), 'abcAdmin')).statusCode).toBe(404);
  });

  it('a row whose file the store no longer has is not found, not an error', async () => {
    const [{ storage_key: key }] = await sys<{ storage_key: string }>('select storage_key from call_recordings where id = $1', [c5]);
    const bytes = (await store.get(key))!;
    await store.delete(key);
    expect((await get(RECORDING_API.audio(c5), 'admin')).statusCode).toBe(404);
    await store.put(key, bytes);
  });
});

describe('call-history rows name their recording', () => {
  const rows = async (who: keyof ReportFixture['h'], path = 'call-history'): Promise<CallReportRow[]> => {
    const res = await get(`reports/${path}?from=${REPORT_DAY}&to=${REPORT_DAY}`, who);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('for a viewer holding recording.listen (downloadable with recording.download); not for others', async () => {
    const admin = await rows('admin');
    const answeredBy = (list: CallReportRow[], ext: string) => list.find((r) => r.answered_by?.extension === ext)!;
    expect(answeredBy(admin, '102').recording).toEqual({ id: c1, duration_seconds: 95.5, downloadable: true });
    expect(answeredBy(admin, '101').recording).toEqual({ id: c5, duration_seconds: 95.5, downloadable: true });
    // Calls without a recording say so.
    expect(admin.filter((r) => r.recording === null)).toHaveLength(admin.length - 2);
    expect((await rows('admin', 'success-calls')).filter((r) => r.recording).map((r) => r.recording!.id).sort()).toEqual([c1, c5].sort());
    // The keyset page too.
    const keyset = await get(`reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}&cursor=`, 'admin');
    expect((keyset.json().data as CallReportRow[]).filter((r) => r.recording).length).toBe(2);

    const staff = await rows('staff');
    expect(staff.map((r) => r.recording)).toEqual(staff.map((r) => (r.answered_by?.extension === '102' ? { id: c1, duration_seconds: 95.5, downloadable: false } : null)));
    const manager = await rows('manager');
    expect(manager.length).toBeGreaterThan(0);
    expect(manager.every((r) => !('recording' in r))).toBe(true);
  });
});

describe('a call that left a voicemail message (issue 16: heard from the web, permission-checked)', () => {
  it('its call-history row names the message for a viewer holding recording.listen; the audio follows the history\'s scope', async () => {
    // A call of the fixture nobody answered, not one of 102's: a caller left a message.
    const [call] = await sys<{ call_id: string }>(
      "select call_id from cdrs where tenant_id = $1 and disposition <> 'ANSWERED' and caller <> '102' and callee <> '102' and coalesce(extension, '') <> '102' order by started_at limit 1",
      [ids.demo],
    );
    const wav = toneWav(1.5);
    const [{ id }] = await sys<{ id: number }>(
      "insert into voicemail_messages (tenant_id, mailbox, caller, call_id, duration_seconds, mime, bytes) values ($1, '101', '0909000001', $2, 1.5, 'audio/wav', $3) returning id",
      [ids.demo, call.call_id, wav],
    );
    const admin = (await get(`reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}`, 'admin')).json().data as CallReportRow[];
    expect(admin.filter((r) => r.voicemail).map((r) => r.voicemail)).toEqual([{ id, duration_seconds: 1.5 }]);
    expect(admin.filter((r) => r.voicemail === null)).toHaveLength(admin.length - 1);
    const heard = await get(VOICEMAIL_API.ofCall(id), 'admin');
    expect(heard.statusCode).toBe(200);
    expect(heard.headers['content-type']).toBe('audio/wav');
    expect(Buffer.compare(heard.rawPayload, wav)).toBe(0);
    // Not another tenant's, not without recording.listen, not a call outside the viewer's history.
    expect((await get(VOICEMAIL_API.ofCall(id), 'abcAdmin')).statusCode).toBe(404);
    expect((await get(VOICEMAIL_API.ofCall(id), 'manager')).statusCode).toBe(403);
    expect((await get(VOICEMAIL_API.ofCall(id), 'staff')).statusCode).toBe(404);
    const manager = (await get(`reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}`, 'manager')).json().data as CallReportRow[];
    expect(manager.every((r) => !('voicemail' in r))).toBe(true);
    await sys('delete from voicemail_messages where id = $1', [id]);
  });
});

describe('retention', () => {
  it('the sweep deletes, per tenant with a retention, the recordings older than it, file and row, and keeps the rest', async () => {
    const put = await t.app.inject({ method: 'PUT', url: `/t/demo/${RECORDING_API.settings}`, headers: h.admin, payload: { recording_mode: 'all', retention_days: 30 } });
    expect(put.statusCode).toBe(200);
    const old = (await upload(query(ids.demo, 'c3'), mp3(5))).json().id as number;
    const abcOld = (await upload(query(ids.abc, 'a1'), mp3(5))).json().id as number;
    await sys(`update call_recordings set created_at = now() - interval '31 days' where id = any($1::int[])`, [[old, abcOld]]);
    const keys = Object.fromEntries((await sys<{ id: number; storage_key: string }>('select id, storage_key from call_recordings')).map((r) => [r.id, r.storage_key]));
    expect(files()).toEqual(Object.values(keys).sort());

    expect(await sweepRecordings(t.db, store, new Date())).toBe(1);
    // demo keeps 30 days: c3's went; c1 and c5 are new; abc keeps recordings forever.
    expect((await sys<{ id: number }>('select id from call_recordings order by id')).map((r) => r.id)).toEqual([c1, c5, abcOld].sort((a, b) => a - b));
    expect(files()).toEqual([keys[c1], keys[c5], keys[abcOld]].sort());
    expect(existsSync(join(dir, keys[old]))).toBe(false);
    expect((await get(RECORDING_API.audio(c1), 'admin')).statusCode).toBe(200);
    expect(await sweepRecordings(t.db, store, new Date())).toBe(0);
    // Thirty days on, c1 and c5 have had their time too.
    expect(await sweepRecordings(t.db, store, new Date(Date.now() + 31 * 86_400_000))).toBe(2);
    expect(files()).toEqual([keys[abcOld]]);
  });

  it('the server sweeps once it is ready (then hourly), and waits for a sweep under way when it closes', async () => {
    const old = (await upload(query(ids.demo, 'c2'), mp3(5))).json().id as number;
    await sys(`update call_recordings set created_at = now() - interval '31 days' where id = $1`, [old]);
    const app = Fastify();
    scheduleRecordingSweep(app, t.db, store);
    expect(await sys('select 1 from call_recordings where id = $1', [old])).toHaveLength(1);
    await app.ready();
    for (const end = Date.now() + 3000; (await sys('select 1 from call_recordings where id = $1', [old])).length && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    expect(await sys('select 1 from call_recordings where id = $1', [old])).toEqual([]);
    await app.close();
  });
});
