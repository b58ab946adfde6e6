// Runs Debian's rtpengine (package rtpengine-daemon, userspace only: --table=-1, no kernel
// module) for `npm start` and the tests: it bridges plain-RTP trunks to browsers' WebRTC when
// Kamailio asks it to (sip/kamailio.cfg, RTPENGINE_SOCK). Own work dir, own ports, loopback only.
import { createSocket } from 'node:dgram';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { logTail, spawnDaemon } from './daemon.mjs';

const BINARIES = ['/usr/bin/rtpengine', '/usr/sbin/rtpengine', '/usr/local/bin/rtpengine'];

export function rtpengineBinary() {
  return BINARIES.find((p) => existsSync(p)) ?? null;
}

export const rtpengineAvailable = () => rtpengineBinary() !== null;

/** One ng-protocol "ping"; resolves true on "pong", false on timeout. */
export function rtpenginePing(ngPort, timeoutMs = 300) {
  return new Promise((resolve) => {
    const sock = createSocket('udp4');
    const cookie = Math.random().toString(36).slice(2, 10);
    const timer = setTimeout(() => { sock.close(); resolve(false); }, timeoutMs);
    sock.on('message', (buf) => {
      clearTimeout(timer);
      sock.close();
      resolve(buf.toString().startsWith(`${cookie} `) && buf.includes('pong'));
    });
    sock.on('error', () => { clearTimeout(timer); sock.close(); resolve(false); });
    sock.send(`${cookie} d7:command4:pinge`, ngPort, '127.0.0.1');
  });
}

/**
 * Starts rtpengine on 127.0.0.1: ng control on UDP ngPort, media on [portMin, portMax]. Resolves
 * once it answers a ping, with `sock` in Kamailio's rtpengine_sock form. Log: DIR/rtpengine.log.
 */
export async function startRtpengine({ ngPort, portMin, portMax, dir, timeoutMs = 10_000 }) {
  const bin = rtpengineBinary();
  if (!bin) throw new Error('rtpengine is not installed: sudo node scripts/lib/system.mjs start installs it (the list is in scripts/lib/system.mjs)');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'rtpengine.log');
  const args = [
    '--config-file=none', '--foreground', '--log-stderr', '--table=-1', '--interface=127.0.0.1',
    `--listen-ng=127.0.0.1:${ngPort}`, `--port-min=${portMin}`, `--port-max=${portMax}`,
    `--pidfile=${join(dir, 'rtpengine.pid')}`,
  ];
  const { proc, stop } = spawnDaemon(bin, args, { cwd: dir, log });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`rtpengine exited with code ${proc.exitCode}:\n${logTail(log)}`);
    if (await rtpenginePing(ngPort)) return { stop, sock: `udp:127.0.0.1:${ngPort}`, pid: proc.pid, log };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`rtpengine did not answer on udp ${ngPort} within ${timeoutMs} ms:\n${logTail(log)}`);
}
