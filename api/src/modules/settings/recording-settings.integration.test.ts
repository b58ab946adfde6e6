import { MSG, RECORDING_API, RECORDING_MSG, type PbxConfig, type Subscriber } from '@tongdai/contracts';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { loadPbxConfig } from '../pbx/pbx.service';

/**
 * Issue 16: which calls are recorded — the tenant's mode and retention (/recording-settings), a
 * queue's and an extension's own mode — saved through the API and read by the routing
 * configuration (loadPbxConfig), with Vietnamese messages for bad values.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let demoId: number;

beforeAll(async () => {
  t = await startTestApp({ recordingSweepMs: null });
  h = await demoHeaders(t.app);
  demoId = (await t.db.withSystem((tx) => tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'"))).rows[0].id;
});
afterAll(() => t?.close());

const config = (): Promise<PbxConfig> => t.db.withTenant(demoId, (tx) => loadPbxConfig(tx, demoId, 'demo'));
const settings = (method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object, maDn = 'demo') =>
  t.app.inject({ method, url: `/t/${maDn}/${RECORDING_API.settings}`, headers, ...(payload && { payload }) });

describe('GET/PUT /t/:ma_dn/recording-settings', () => {
  it('a tenant records nothing and keeps recordings forever until it says otherwise; bad values get Vietnamese messages', async () => {
    const first = await settings('GET', h.admin);
    expect([first.statusCode, first.json()]).toEqual([200, { data: { recording_mode: 'none', retention_days: null, monitor_calls: false } }]);
    expect((await config()).recordingMode).toBe('none');

    for (const [body, field, message] of [
      [{ recording_mode: 'sometimes' }, 'recording_mode', RECORDING_MSG.mode],
      [{ retention_days: 30 }, 'recording_mode', MSG.required],
      [{ recording_mode: 'all', retention_days: 0 }, 'retention_days', RECORDING_MSG.retention],
      [{ recording_mode: 'all', retention_days: '3651' }, 'retention_days', RECORDING_MSG.retention],
      [{ recording_mode: 'all', retention_days: 1.5 }, 'retention_days', RECORDING_MSG.retention],
      [{ recording_mode: 'all', retention_days: 'ba mươi' }, 'retention_days', RECORDING_MSG.retention],
    ] as const) {
      const bad = await settings('PUT', h.admin, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(bad.json().details).toContainEqual({ field, message });
    }
    expect((await settings('GET', h.admin)).json().data).toEqual({ recording_mode: 'none', retention_days: null, monitor_calls: false });

    const saved = await settings('PUT', h.admin, { recording_mode: 'inbound', retention_days: '90' });
    expect([saved.statusCode, saved.json()]).toEqual([200, { data: { recording_mode: 'inbound', retention_days: 90, monitor_calls: false } }]);
    expect((await settings('GET', h.admin)).json().data).toEqual({ recording_mode: 'inbound', retention_days: 90, monitor_calls: false });
    expect((await config()).recordingMode).toBe('inbound');
    // Left out or empty: kept forever.
    expect((await settings('PUT', h.admin, { recording_mode: 'all', retention_days: '' })).json().data).toEqual({ recording_mode: 'all', retention_days: null, monitor_calls: false });
    // The other system settings are untouched by it, and it by them.
    const sys = await t.app.inject({ url: '/t/demo/get-system-setting', headers: h.admin });
    expect(sys.json().data).toMatchObject({ hidden_phone_customer: 0, show_popup_customer: 1 });
    await t.app.inject({ method: 'PUT', url: '/t/demo/update-system-setting', headers: h.admin, payload: { ...sys.json().data, show_popup_customer: 0 } });
    expect((await settings('GET', h.admin)).json().data).toEqual({ recording_mode: 'all', retention_days: null, monitor_calls: false });
  });

  it('"monitor every call" is saved, read by the routing configuration, and refused when not a yes/no', async () => {
    const on = await settings('PUT', h.admin, { recording_mode: 'none', retention_days: 30, monitor_calls: true });
    expect([on.statusCode, on.json().data]).toEqual([200, { recording_mode: 'none', retention_days: 30, monitor_calls: true }]);
    expect((await config()).monitorCalls).toBe(true);
    const bad = await settings('PUT', h.admin, { recording_mode: 'none', monitor_calls: 'có' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toContainEqual({ field: 'monitor_calls', message: RECORDING_MSG.monitorCalls });
    expect((await settings('GET', h.admin)).json().data.monitor_calls).toBe(true);
    // Left out by a client that does not know it: off.
    expect((await settings('PUT', h.admin, { recording_mode: 'all', retention_days: '' })).json().data).toEqual({ recording_mode: 'all', retention_days: null, monitor_calls: false });
    expect((await config()).monitorCalls).toBe(false);
  });

  it('needs setting.view to read and setting.edit to change; each tenant has its own', async () => {
    expect((await settings('GET', h.staff)).statusCode).toBe(403);
    expect((await settings('PUT', h.staff, { recording_mode: 'none' })).statusCode).toBe(403);
    expect((await settings('GET', h.abcAdmin, undefined, 'abc')).json().data).toEqual({ recording_mode: 'none', retention_days: null, monitor_calls: false });
    expect((await settings('PUT', h.abcAdmin, { recording_mode: 'none' })).statusCode).toBe(401);
  });
});

describe("a queue's and an extension's own recording mode", () => {
  it('a queue keeps its mode (null: the tenant’s) and the routing configuration reads it', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/pbx/partner/queues', headers: h.admin, payload: { name: 'Hàng đợi ghi âm', agents: ['101'], recording_mode: 'outbound' } });
    expect(created.statusCode).toBe(201);
    const queue = created.json().data;
    expect(queue.recording_mode).toBe('outbound');
    expect((await t.app.inject({ url: `/pbx/partner/queues/${queue.id}`, headers: h.admin })).json().data.recording_mode).toBe('outbound');
    expect((await config()).queues.find((q) => q.id === queue.id)?.recording_mode).toBe('outbound');

    const bad = await t.app.inject({ method: 'PUT', url: `/pbx/partner/queues/${queue.id}`, headers: h.admin, payload: { name: queue.name, agents: ['101'], recording_mode: 'always' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toContainEqual({ field: 'recording_mode', message: RECORDING_MSG.mode });

    const inherit = await t.app.inject({ method: 'PUT', url: `/pbx/partner/queues/${queue.id}`, headers: h.admin, payload: { name: queue.name, agents: ['101'], recording_mode: '' } });
    expect(inherit.statusCode).toBe(200);
    expect(inherit.json().data.recording_mode).toBeNull();
    expect((await config()).queues.find((q) => q.id === queue.id)?.recording_mode).toBeNull();
  });

  it('an extension keeps its mode; a client that leaves it out changes nothing; null follows the tenant', async () => {
    const list = await t.app.inject({ url: '/t/demo/subscribers', headers: h.admin });
    const ext = (list.json().data as Subscriber[]).find((s) => s.extension === '102')!;
    expect(ext.recording_mode).toBeNull();
    const put = (body: object) => t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${ext.id}`, headers: h.admin, payload: { extension: '102', display_name: ext.display_name, user_id: ext.user_id, ...body } });

    const saved = await put({ recording_mode: 'inbound' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.recording_mode).toBe('inbound');
    expect((await put({ ring_time: 15 })).json().data).toMatchObject({ recording_mode: 'inbound', ring_time: 15 });
    const bad = await put({ recording_mode: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toContainEqual({ field: 'recording_mode', message: RECORDING_MSG.mode });
    const cfg = await config();
    expect(cfg.extensions.find((e) => e.extension === '102')?.recording_mode).toBe('inbound');
    expect(cfg.extensions.find((e) => e.extension === '101')?.recording_mode).toBeNull();

    expect((await put({ recording_mode: null })).json().data.recording_mode).toBeNull();
    expect((await config()).extensions.find((e) => e.extension === '102')?.recording_mode).toBeNull();

    // A new extension with a mode of its own.
    const created = await t.app.inject({ method: 'POST', url: '/t/demo/subscribers', headers: h.admin, payload: { extension: '188', display_name: 'Máy ghi âm', user_id: null, recording_mode: 'all' } });
    expect(created.statusCode).toBe(201);
    expect((await config()).extensions.find((e) => e.extension === '188')?.recording_mode).toBe('all');
  });
});
