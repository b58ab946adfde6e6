import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MediaApi } from './api';

/** Two API instances (ADR 0059): the one that stands by answers 503; a stopped one refuses the connection. */
describe('MediaApi with two API instances', () => {
  const servers: Server[] = [];
  const seen: string[] = [];
  const listen = (name: string, status: number): Promise<string> =>
    new Promise((resolve) => {
      const s = createServer((req, res) => {
        seen.push(`${name} ${req.method} ${req.url} ${req.headers['x-tongdai-internal']}`);
        res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? JSON.stringify({ token: `from-${name}` }) : '{"code":"CALL_PLANE_STANDBY"}');
      });
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}/internal/sip`));
    });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    seen.length = 0;
  });

  it('asks the other instance when the first stands by, and asks it first from then on', async () => {
    const standby = await listen('a', 503);
    const active = await listen('b', 200);
    const api = new MediaApi(`${standby},${active}/`, 'secret');
    expect(await api.next('c1', 0, { digits: '1' } as never)).toEqual({ token: 'from-b' });
    expect(await api.next('c1', 1, { digits: '2' } as never)).toEqual({ token: 'from-b' });
    expect(seen).toEqual(['a POST /internal/sip/media/continue secret', 'b POST /internal/sip/media/continue secret', 'b POST /internal/sip/media/continue secret']);
  });

  it('asks the other instance when the first refuses the connection', async () => {
    const active = await listen('b', 200);
    const api = new MediaApi(['http://127.0.0.1:9/internal/sip', active], 'secret');
    expect(await api.next('c2', 0, { digits: '1' } as never)).toEqual({ token: 'from-b' });
  });

  it('with both standing by, asked again for failoverMs, then the last 503 is the answer', async () => {
    const api = new MediaApi([await listen('a', 503), await listen('b', 503)], 'secret');
    api.failoverMs = 500;
    const t0 = Date.now();
    await expect(api.next('c3', 0, { digits: '1' } as never)).rejects.toThrow('/media/continue: HTTP 503');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    expect(seen.length).toBeGreaterThanOrEqual(4);
  });

  it('the other instance taking the calls over within the window: answered', async () => {
    const standby = await listen('a', 503);
    const api = new MediaApi([standby, 'http://127.0.0.1:9/internal/sip'], 'secret');
    // The holder is gone (connection refused) and the standby is still taking over; 0.5 s later it serves.
    const later = new Promise<string>((r) => setTimeout(() => void listen('b', 200).then(r), 500));
    const answered = api.next('c4', 0, { digits: '1' } as never);
    const active = await later;
    (api as unknown as { bases: string[] }).bases[1] = active;
    expect(await answered).toEqual({ token: 'from-b' });
  });

  it('one instance: a 503 is the answer at once (no window)', async () => {
    const api = new MediaApi(await listen('a', 503), 'secret');
    const t0 = Date.now();
    await expect(api.next('c5', 0, { digits: '1' } as never)).rejects.toThrow('HTTP 503');
    expect(Date.now() - t0).toBeLessThan(400);
  });
});
