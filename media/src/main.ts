/**
 * The media worker process. Environment:
 *   MEDIA_ADDRESS   address to bind (default 127.0.0.1)
 *   MEDIA_ANNOUNCE  address put in SIP and SDP (default MEDIA_ADDRESS; for 0.0.0.0 the first
 *                   non-loopback IPv4 address of the host)
 *   MEDIA_PORT      SIP UDP port (default 5070)
 *   MEDIA_API_URL   the API's internal listener (default http://127.0.0.1:4001/internal/sip)
 *   MEDIA_API_SECRET  the listener's shared secret (the API's INTERNAL_SECRET; required)
 *   MEDIA_PROXY     Kamailio's UDP address host:port (default 127.0.0.1:5060)
 *   MEDIA_ORIGINATE_POLL_MS  how often to ask the API for a call to place (voice-OTP; default 1500, 0: never)
 *   MEDIA_SPOOL_DIR recordings until the API has them, kept across this worker's restarts
 *                   (default <repo>/.data/recording-spool/<MEDIA_PORT>)
 * SIGUSR2 prints one line of its memory and event-loop delay (process-stats.ts: the soak bench).
 */
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { printStatsOnSignal } from './process-stats';
import { startWorker } from './worker';

const bind = process.env.MEDIA_ADDRESS ?? '127.0.0.1';
const hostAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? '127.0.0.1';
const announce = process.env.MEDIA_ANNOUNCE ?? (bind === '0.0.0.0' ? hostAddress() : bind);

const apiSecret = process.env.MEDIA_API_SECRET ?? '';
if (apiSecret.length < 32) {
  console.error('MEDIA_API_SECRET is not set: the API answers the media worker only with its INTERNAL_SECRET');
  process.exit(1);
}
const [proxyHost, proxyPort] = (process.env.MEDIA_PROXY ?? '127.0.0.1:5060').split(':');
const port = Number(process.env.MEDIA_PORT ?? 5070);
printStatsOnSignal();
startWorker({
  address: bind,
  announce,
  port,
  spoolDir: process.env.MEDIA_SPOOL_DIR || join(resolve(__dirname, '../..'), '.data', 'recording-spool', String(port)),
  apiUrl: process.env.MEDIA_API_URL ?? 'http://127.0.0.1:4001/internal/sip',
  apiSecret,
  originatePollMs: process.env.MEDIA_ORIGINATE_POLL_MS ? Number(process.env.MEDIA_ORIGINATE_POLL_MS) : undefined,
  originateWaitMs: process.env.MEDIA_ORIGINATE_WAIT_MS ? Number(process.env.MEDIA_ORIGINATE_WAIT_MS) : undefined,
  proxy: { address: proxyHost, port: Number(proxyPort ?? 5060) },
})
  .then((w) => {
    console.log(`media worker on udp ${announce}:${w.port}`);
    const stop = () => {
      w.stop();
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
