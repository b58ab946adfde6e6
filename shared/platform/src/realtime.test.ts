import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MSG, REALTIME_PROTOCOL, SESSION_ENDED_CLOSE, STORAGE_KEYS } from '@tongdai/contracts';
import { setRuntimeConfig } from './config';
import { flash } from './notices';
import { markSigningOut } from './http';
import { connectPbxEvents } from './realtime';
import { session } from './session';
import { theme } from './theme';

/**
 * A WebSocket endpoint speaking just enough RFC 6455 for the client under test (jsdom's real
 * WebSocket): it accepts the upgrade with REALTIME_PROTOCOL and closes every socket with `code`.
 */
function closingServer(code: number): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer();
  server.on('upgrade', (req, socket: Socket) => {
    connections++;
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`, `Sec-WebSocket-Protocol: ${REALTIME_PROTOCOL}`, '', ''].join('\r\n'),
    );
    const reason = Buffer.from('SESSION_EXPIRED');
    const payload = Buffer.concat([Buffer.from([code >> 8, code & 0xff]), reason]);
    socket.write(Buffer.concat([Buffer.from([0x88, payload.length]), payload]));
    socket.on('data', () => socket.end());
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, connections: () => connections })));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('connectPbxEvents', () => {
  let release: (() => void) | null = null;
  afterEach(() => {
    release?.();
    release = null;
    localStorage.clear();
    sessionStorage.clear();
  });

  async function connectTo(code: number) {
    const endpoint = await closingServer(code);
    setRuntimeConfig({ apis: { tenant: `http://127.0.0.1:${endpoint.port}/t/{ma_dn}` } as never, remotes: {} });
    theme.setDark(true);
    session.start({ token: 't1', maDn: 'demo', user: { name: 'nhan-vien', permissions: [] }, profile: null, payment: null });
    // jsdom cannot navigate: expireSession's redirect to /login is reported on its virtual console.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    release = connectPbxEvents();
    return { ...endpoint, quiet };
  }

  it('ends the session once when the API closes the socket with SESSION_ENDED_CLOSE, and does not reconnect', async () => {
    const { server, connections, quiet } = await connectTo(SESSION_ENDED_CLOSE);
    try {
      await sleep(2500); // longer than the 1 s reconnect delay
      expect(connections()).toBe(1);
      expect(flash.take()).toBe(MSG.sessionExpired);
      // Storage cleared as on session expiry, dark mode kept (ADR 0004).
      expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.darkMode)).toBe('1');
    } finally {
      quiet.mockRestore();
      server.close();
    }
  });

  it('a socket closed for a token the user is logging out of is no expiry: no message, no redirect', async () => {
    markSigningOut('t1'); // logout() marks the token before POST /logout revokes it
    const { server, connections, quiet } = await connectTo(SESSION_ENDED_CLOSE);
    try {
      await sleep(1500);
      expect(connections()).toBe(1);
      expect(flash.take()).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t1'); // logout() clears it itself
    } finally {
      quiet.mockRestore();
      server.close();
    }
  });

  it('reconnects after any other close (a restarted API), the session kept', async () => {
    const { server, connections, quiet } = await connectTo(1012);
    try {
      await sleep(2500);
      expect(connections()).toBeGreaterThanOrEqual(2);
      expect(flash.take()).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t1');
    } finally {
      quiet.mockRestore();
      server.close();
    }
  });
});
