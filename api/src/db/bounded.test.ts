import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { bounded } from './redis';

/**
 * `bounded` (what waits on Redis) when this process's own event loop was held up: an answer that came
 * meanwhile is taken, not the timeout that fell due beside it; nothing that came is still a timeout.
 */
describe('bounded: a held-up event loop does not turn an answer into a timeout', () => {
  let server: ChildProcess;
  let client: Socket;
  beforeAll(async () => {
    // An echo server in a process of its own (as Redis is): whatever is sent comes back at once, even while this
    // process's event loop is held.
    server = spawn(process.execPath, ['-e', "const s = require('node:net').createServer((c) => c.on('data', (d) => c.write(d))); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((r) => server.stdout!.once('data', (d: Buffer) => r(Number(d.toString().trim()))));
    client = connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
  });
  afterAll(() => {
    client.destroy();
    server.kill();
  });

  const hold = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until) { /* the event loop held, as a password hash holds it */ }
  };

  it('takes the answer that came while the loop was held past the time', async () => {
    const answer = new Promise<string>((resolve) => client.once('data', (d) => resolve(d.toString())));
    const result = bounded(answer, 50);
    client.write('PONG');
    hold(200);
    await expect(result).resolves.toBe('PONG');
  });

  it('still times out when nothing came', async () => {
    const never = new Promise<string>(() => undefined);
    const result = bounded(never, 50);
    hold(100);
    await expect(result).rejects.toThrow('Redis did not answer within 50 ms');
  });
});
