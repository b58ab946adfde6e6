import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MONITOR_API } from '@tongdai/contracts';
import type { ActiveCall } from '../cdr/call-tracker';
import { toKamailioPlan } from '../kamailio/kamailio-plan';
import type { RoutingPlan } from '../routing';
import { evapiStandIn, type EvapiStandIn } from '../../../test/evapi-stand-in';
import { startApiProcess, until, type ApiProcess } from '../../../test/api-process';
import { fillPgliteFolder } from '../../../test/pglite-image';

/**
 * An API that starts again while calls are up (issue 41, "no undercount"): the calls in progress
 * come back before anything is served. Here a call only Kamailio still knows (its predecessor died
 * before its journal had it) arrives in Kamailio's replay, whose end comes 4 s after the welcome, as
 * from a slow Kamailio on a loaded machine. The API is a real process (src/main.ts on its own PGlite),
 * Kamailio's evapi end a stand-in (the fault suites run the real one). Before the internal listener
 * was started first, /health answered at once and the first /monitor snapshot was empty (CI of stop 49).
 */
const free = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('an API started while a call is up', () => {
  const secret = randomBytes(32).toString('base64url');
  let dir: string;
  let events: EvapiStandIn;
  let api: ApiProcess | null = null;

  afterAll(async () => {
    await api?.kill();
    events?.close();
    // A killed API's last PGlite writes may still land while its folder goes (ENOTEMPTY at load 13): tried again.
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('serves nothing before Kamailio\'s kept calls are back: the first /monitor snapshot shows the call talking since its real answer', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tongdai-restart-'));
    // The run's seeded PGlite image, not a fresh folder's migrations and seed (test/pglite-image.ts).
    await fillPgliteFolder(join(dir, 'pglite'));
    const node = { type: 'extension' as const, id: '102', name: '102' };
    const plan: RoutingPlan = {
      direction: 'internal', from: '101', to: '102', did: null, interactive: false, route: [node],
      steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: '102', timeout: 30 }], timeout: 30, source: node }],
    };
    const callId = `restart-${randomBytes(4).toString('hex')}`;
    const startedAt = Date.now() - 20_000;
    const answeredAt = startedAt + 5000;
    // The demo tenant is the seed's first (id 1), as a fresh DATA_DIR makes it.
    const state: ActiveCall = {
      callId, tenantId: 1, maDn: 'demo', caller: '101', callee: '102', callerExtension: '101', plan,
      kamailio: toKamailioPlan(plan, 'demo.tongdai.local', {}), startedAt: new Date(startedAt),
      answeredAt: new Date(answeredAt), answeredBy: '102', answeredStep: 0,
    };
    const kept = [
      { event: 'start', id: '1700000000.1', call_id: callId, state: JSON.stringify(state), at: (startedAt / 1000).toFixed(6) },
      { event: 'answer', id: '1700000000.2', call_id: callId, ext: '102', step: '0', at: (answeredAt / 1000).toFixed(6) },
    ];
    events = await evapiStandIn(secret, () => undefined, { events: kept, markerAfterMs: 4000 });
    const [port, internal] = [await free(), await free()];
    api = await startApiProcess({
      DATABASE_URL: '', PORT: String(port), DATA_DIR: join(dir, 'pglite'), INTERNAL_PORT: String(internal), INTERNAL_SECRET: secret,
      KAMAILIO_EVAPI: `127.0.0.1:${events.port}`, TONGDAI_TEST_CLOCK: '', REDIS_URL: '',
    }, 240_000); // tsx compiling the API at load 16 (a fresh PGlite's migrations and seed took over 120 s there; it starts from the run's image now)

    // The first answer after /health: the wall a supervisor opening /monitor reads.
    const login = await fetch(`${api.url}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: 'demo', username: 'admin', password: 'Admin@123' }) });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    const res = await fetch(`${api.url}/t/demo/${MONITOR_API.snapshot}`, { headers: { authorization: `Bearer ${token}` } });
    const { calls } = ((await res.json()) as { data: { calls: unknown[] } }).data;
    expect(calls).toMatchObject([{ call_id: callId, state: 'talking', extension: '102', caller_extension: '101', answered_at: answeredAt }]);
    // Both kept events were applied durably, so Kamailio may forget them.
    await until('both events acknowledged', () => events.received.filter((m) => 'ack' in m).map((m) => m.ack), (acks) => acks.length === 2);
  }, 360_000); // an API process on PGlite, started twice: more than 120 s at load 13 (ci3 of the thirtieth session)
});
