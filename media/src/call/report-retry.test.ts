import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DialerJob } from '@tongdai/contracts';
import { startWorker, type RunningWorker } from '../worker';
import { FakeProxy, until } from './testing/fake-sip';

/**
 * A placed call's last report reaches an API that was away longer than the worker's first tries (a
 * restart, a database away): the worker keeps sending it, its waits capped, until the API takes it.
 * Before, it gave up after six tries (about 16 s at the real waits): a bridged call then waited for the
 * API's 4-hour sweep, and a voice survey's answers were lost.
 */
describe('a report the API does not take at once', () => {
  let proxy: FakeProxy;
  let api: Server;
  let worker: RunningWorker;
  let spool: string;
  const refusedFirst = 12;
  let refused = 0;
  const taken: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const job: DialerJob = { kind: 'dialer', id: '71', tenant_id: 1, attempt: 1, token: 'busy-contact', caller: '02873000001', ring_s: 5, campaign_id: 3, contact_id: 9 };

  beforeAll(async () => {
    proxy = await FakeProxy.open();
    proxy.behaviours.set(job.token, { answer: 486 });
    let handedOut = false;
    api = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.url === '/media/originate') {
          if (handedOut) return res.writeHead(204).end();
          handedOut = true;
          return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jobs: [job] }));
        }
        // The API away: its first answers are 503s.
        if (refused < refusedFirst) {
          refused++;
          return res.writeHead(503).end();
        }
        taken.push(JSON.parse(raw) as Record<string, unknown>);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, applied: true }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    spool = mkdtempSync(join(tmpdir(), 'report-retry-'));
    worker = await startWorker({
      address: '127.0.0.1', port: 0, apiUrl: `http://127.0.0.1:${(api.address() as { port: number }).port}`, apiSecret: 'secret', proxy: { address: '127.0.0.1', port: proxy.port },
      spoolDir: spool, originatePollMs: 50, originateWaitMs: 0, log: (m) => logs.push(m),
      // The real waits (500 ms doubled, capped at 10 s) scaled down: 12 refusals outlast the six tries of before.
      reportRetryMs: 5, reportRetryCapMs: 40,
    });
  });

  afterAll(async () => {
    worker.stop();
    proxy.socket.close();
    await new Promise((r) => api.close(r));
    rmSync(spool, { recursive: true, force: true });
  });

  it('is sent again, its waits capped, until the API takes it: the busy contact is reported once', async () => {
    await until('the report taken', () => taken.length > 0, 5000);
    expect(refused).toBe(refusedFirst);
    expect(taken).toEqual([expect.objectContaining({ kind: 'dialer', id: '71', outcome: 'busy', status: 486 })]);
    expect(logs.some((l) => /report busy not taken \(try 1\)/.test(l))).toBe(true);
    expect(logs.some((l) => /given up/.test(l))).toBe(false);
  });
});
