// Free loopback ports for servers a test or the bench starts (the OS picks, the caller binds
// right after: fine on a test machine).
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

export const freeTcpPort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});

export const freeUdpPort = () => new Promise((resolve) => {
  const s = createSocket('udp4');
  s.bind(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
