import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/** A free loopback port for a test server (UDP for SIP, TCP for HTTP); the caller binds it right after. */
export const freePort = (udp: boolean) =>
  new Promise<number>((resolve) => {
    if (udp) {
      const s = createSocket('udp4').bind(0, '127.0.0.1', () => {
        const { port } = s.address();
        s.close(() => resolve(port));
      });
    } else {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    }
  });
