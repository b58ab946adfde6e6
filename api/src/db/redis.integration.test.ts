import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { RedisStatus, closeRedis, type RedisConnection } from './redis';
import { REDIS_MISSING, startRedisServer, type RedisServer } from '../../test/redis-server';
import { until } from '../../test/api-process';

/**
 * A Redis that is dying accepts a connection (the kernel's backlog) and resets it during the
 * client's handshake. node-redis 5.9 then said "ready" on the dead socket and never reconnected:
 * every later command waited for good and /health stayed "degraded" after Redis was back
 * (redis-away.integration, CI of stop 50; node-redis #3108, fixed in 5.11 and 6.2). Here a proxy
 * in front of a real redis-server resets the first connections the moment they are accepted.
 */
describe('a Redis connection whose reconnection is reset during the handshake', () => {
  let redis: RedisServer;
  let proxy: Server;
  let port = 0;
  let resets = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    const server = await startRedisServer();
    if (!server) throw new Error(REDIS_MISSING);
    redis = server;
    const target = Number(new URL(redis.url).port);
    proxy = createServer((client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      if (resets > 0) {
        resets--;
        // Once the client has written its handshake, as a server that dies meanwhile.
        client.once('data', () => client.resetAndDestroy());
        return;
      }
      const upstream = createConnection({ host: '127.0.0.1', port: target });
      client.pipe(upstream).pipe(client);
      const end = () => (client.destroy(), upstream.destroy());
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    port = (proxy.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => proxy?.close(r));
    await redis?.stop();
  });

  it('reconnects: Redis answers again and /health would say so', async () => {
    const log: string[] = [];
    const status = new RedisStatus((line) => void log.push(line));
    const client: RedisConnection = await status.connect(`redis://127.0.0.1:${port}`, 'test');
    try {
      expect(await client.ping()).toBe('PONG');
      // The connection drops; its next three attempts are reset in the handshake.
      resets = 3;
      for (const s of sockets) s.resetAndDestroy();
      await until('the connection is seen lost', () => status.up, (up) => !up, 5000);
      await until('Redis answers the connection again', () => client.ping().then(() => true, () => false), (ok) => ok, 15_000);
      expect(resets).toBe(0);
      await until('the status is up again', () => status.up, (up) => up, 5000);
      expect(log).toEqual([
        'Redis unreachable (test): degraded, each API instance goes on with its own state until it is back',
        'Redis is back: shared state being rebuilt',
      ]);
    } finally {
      await closeRedis(client);
    }
  }, 30_000);
});
