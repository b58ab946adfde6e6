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
/** Resolves once `done()` holds (checked every 10 ms), failing after 3 s. */
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 3000; !done(); await wait(10)) if (Date.now() > end) throw new Error('not within 3 s');
}

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
      s.write(ns({ event: 'replayed', upto: '0', more: 0 }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => void events.push(e), SECRET).start();
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
      const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => void events.push(e), SECRET, 500, 200).start();
      cleanups.push(() => client.stop(), () => server.close());
      await wait(350);
      expect({ connected: client.connected, events }).toEqual({ connected: false, events: [] });
    }
  });

  it('acknowledges an event of Kamailio\'s outbox only once it is applied durably, and one without an id never (ADR 0046)', async () => {
    const heard: string[] = [];
    let durable!: () => void;
    const { server, port } = await standIn((h, s) => {
      s.on('data', (d) => heard.push(d.toString()));
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      s.write(ns({ event: 'end', call_id: 'kept', id: '1764000000.7', at: '1764000000.250000' }));
      s.write(ns({ event: 'end', call_id: 'unkept' }));
      s.write(ns({ event: 'replayed', upto: '7', more: 0 }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => ((e as { id?: string }).id ? new Promise<void>((r) => (durable = r)) : undefined), SECRET).start();
    cleanups.push(() => client.stop(), () => server.close());
    await wait(300);
    expect(client.connected).toBe(true);
    expect(heard.join('')).not.toContain('ack');
    durable();
    await wait(100);
    expect(heard.join('')).toBe(ns({ ack: '1764000000.7' }));
  });
  it('applies a replay round in the order the events happened, acknowledges it, then asks for the next round (ADR 0046)', async () => {
    const heard: string[] = [];
    const applied: string[] = [];
    const { server, port } = await standIn((h, s) => {
      s.on('data', (d) => heard.push(d.toString()));
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      // Kamailio's outbox, not in order (a hash table), then a live event that came meanwhile.
      s.write(ns({ event: 'end', call_id: 'a', id: '9.3' }));
      s.write(ns({ event: 'answer', call_id: 'a', id: '9.2' }));
      s.write(ns({ event: 'answer', call_id: 'b', id: '9.5' }));
      s.write(ns({ event: 'replayed', upto: '4', more: 1 }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => {
      applied.push((e as { id: string }).id);
      return Promise.resolve();
    }, SECRET).start();
    cleanups.push(() => client.stop(), () => server.close());
    await wait(300);
    // Round 1 is up to 4: 9.2 then 9.3; 9.5 waits for its round.
    expect(applied).toEqual(['9.2', '9.3']);
    expect(heard.join('')).toBe(ns({ ack: '9.2' }) + ns({ ack: '9.3' }) + ns({ replay: '1' }));
  });

  it('applies an earlier run\'s events, read back from disk, before this run\'s, whatever their sequence (ADR 0046)', async () => {
    const heard: string[] = [];
    const applied: string[] = [];
    const { server, port } = await standIn((h, s) => {
      s.on('data', (d) => {
        heard.push(d.toString());
        // The next round once the first is acknowledged: this run's events, the last one looked at is 200.2.
        if (d.toString().includes('"replay"')) s.write(ns({ event: 'replayed', upto: '200.2', more: 0 }));
      });
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      // A Kamailio started at 200 after one started at 100: its own events have lower sequences.
      s.write(ns({ event: 'end', call_id: 'a', id: '100.12' }));
      s.write(ns({ event: 'answer', call_id: 'b', id: '200.1' }));
      s.write(ns({ event: 'answer', call_id: 'a', id: '100.9' }));
      s.write(ns({ event: 'end', call_id: 'b', id: '200.2' }));
      s.write(ns({ event: 'replayed', upto: '100.12', more: 1 }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => {
      applied.push((e as { id: string }).id);
      return Promise.resolve();
    }, SECRET).start();
    cleanups.push(() => client.stop(), () => server.close());
    await until(() => applied.length === 4);
    expect(applied).toEqual(['100.9', '100.12', '200.1', '200.2']);
    expect(heard.join('')).toContain(ns({ ack: '100.9' }) + ns({ ack: '100.12' }) + ns({ replay: '1' }));
  });

  it('applies what it holds as it came when no replay marker comes (an older Kamailio script)', async () => {
    const applied: string[] = [];
    const { server, port } = await standIn((h, s) => {
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      s.write(ns({ event: 'end', call_id: 'x' }));
    });
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => void applied.push((e as { call_id: string }).call_id), SECRET, 500, 5000, 200).start();
    cleanups.push(() => client.stop(), () => server.close());
    await wait(100);
    expect(applied).toEqual([]);
    await wait(300);
    expect(applied).toEqual(['x']);
  });

  it("says when Kamailio's kept events are applied and durable (a starting API serves after them), and at once when Kamailio is not there", async () => {
    let durable: () => void = () => {};
    const { server, port } = await standIn((h, s) => {
      s.write(ns({ event: 'welcome', nonce: h.hello, proof: sha256(`kamailio|${h.hello}|${SECRET}`) }));
      s.write(ns({ id: '7.1', event: 'answer', call_id: 'kept' }));
      s.write(ns({ event: 'replayed', upto: '7.1', more: 0 }));
    });
    const applied: string[] = [];
    const client = new EvapiClient({ host: '127.0.0.1', port }, (e) => {
      applied.push((e as { call_id: string }).call_id);
      return new Promise<void>((r) => (durable = r));
    }, SECRET).start();
    cleanups.push(() => client.stop(), () => server.close());
    let caughtUp: boolean | null = null;
    void client.caughtUp(3000).then((v) => (caughtUp = v));
    await until(() => applied.length === 1);
    await wait(50);
    // Applied but not yet durable: not caught up.
    expect(caughtUp).toBeNull();
    durable();
    await until(() => caughtUp !== null);
    expect(caughtUp).toBe(true);
    // Asked again later: at once.
    expect(await client.caughtUp(10)).toBe(true);

    // Nothing listening on the port: false at once, not after the bound.
    const closed = await standIn(() => {});
    const freePort = closed.port;
    await new Promise<void>((r) => closed.server.close(() => r()));
    const alone = new EvapiClient({ host: '127.0.0.1', port: freePort }, () => undefined, SECRET).start();
    cleanups.push(() => alone.stop());
    const t0 = Date.now();
    expect(await alone.caughtUp(5000)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
