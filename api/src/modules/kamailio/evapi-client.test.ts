import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { EvapiClient } from './evapi-client';

/**
 * The API's end of the evapi handshake against a stand-in on a real TCP port (the real Kamailio
 * side runs in calls.integration.test.ts): events count only after Kamailio proved the secret.
 */
const SECRET = 'the-shared-secret-the-shared-secret-123';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ns = (o: unknown) => {
  const p = JSON.stringify(o);
  return `${Buffer.byteLength(p)}:${p},`;
};

/** A process on the event port; `behave` gets the client's hello and the socket. */
async function standIn(behave: (hello: { hello: string; ts: string; proof: string }, s: Socket) => void): Promise<{ server: Server; port: number; hellos: unknown[] }> {
  const hellos: unknown[] = [];
  const server = createServer((s) => {
    // The client hangs up on a squatter: its later writes may meet EPIPE, which is the point.
    s.on('error', () => {});
    s.once('data', (d) => {
      const text = d.toString();
      const hello = JSON.parse(text.slice(text.indexOf(':') + 1, -1));
      hellos.push(hello);
      behave(hello, s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, hellos };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EvapiClient handshake (ADR 0019)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((f) => f()));

  it('proves the secret without sending it, and applies events once Kamailio proved it back (early ones too)', async () => {
    const events: unknown[] = [];
    const { server, port, hellos } = await standIn((h, s) => {
      expect(h.proof).toBe(sha256(`api|${h.ts}|${h.hello}|${SECRET}`));
      s.write(ns({ event: 'answer', call_id: 'early' }));
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      s.write(ns({ event: 'end', call_id: 'early' }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => events.push(e), SECRET).start();
    cleanups.push(() => client.stop(), () => server.close());
    await wait(300);
    expect(JSON.stringify(hellos)).not.toContain(SECRET);
    expect(client.connected).toBe(true);
    expect(events).toEqual([{ event: 'answer', call_id: 'early' }, { event: 'end', call_id: 'early' }]);
  });

  it('applies nothing from a port squatter: no welcome, a wrong proof, or a welcome for another nonce', async () => {
    for (const welcome of [null, (n: string) => ({ event: 'welcome', nonce: n, proof: sha256(`kamailio|${n}|guess`) }), () => ({ event: 'welcome', nonce: 'f'.repeat(32), proof: sha256(`kamailio|${'f'.repeat(32)}|${SECRET}`) })]) {
      const events: unknown[] = [];
      const { server, port } = await standIn((h, s) => {
        if (welcome) s.write(ns(welcome(h.hello)));
        s.write(ns({ event: 'answer', call_id: 'fake', ext: '101' }));
      });
      const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => events.push(e), SECRET, 500, 200).start();
      cleanups.push(() => client.stop(), () => server.close());
      await wait(350);
      expect({ connected: client.connected, events }).toEqual({ connected: false, events: [] });
    }
  });
});
