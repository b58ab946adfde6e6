// Runs the media worker (media/: greetings, IVR, music on hold) for `npm start` and the e2e stack:
// one process on 127.0.0.1, SIP over UDP, asking the API's internal listener, placing its calls
// through Kamailio. Kamailio's dispatcher lists it (mediaWorkers of startKamailio). internalSecret:
// the API's INTERNAL_SECRET, which the worker presents on every request (MEDIA_API_SECRET).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { logTail, spawnDaemon } from './daemon.mjs';
import { sipOptions } from './kamailio.mjs';
import { ROOT } from './paths.mjs';

const MEDIA_DIR = join(ROOT, 'media');

export const mediaAvailable = () => existsSync(join(MEDIA_DIR, 'node_modules', 'tsx'));

// spoolDir: where its recordings wait until the API has them (MEDIA_SPOOL_DIR; the worker's default:
// <repo>/.data/recording-spool/<port>); a worker started again on it hands over what the last one left.
export async function startMediaWorker({ port, apiInternalUrl, internalSecret, proxyPort, log, spoolDir, timeoutMs = 15_000 }) {
  // node with tsx's loader, not tsx's CLI (which forks): stop() then reaches the worker itself.
  const { proc, stop, exited } = spawnDaemon(process.execPath, ['--import', 'tsx', join(MEDIA_DIR, 'src', 'main.ts')], {
    cwd: MEDIA_DIR,
    log,
    env: { ...process.env, MEDIA_PORT: String(port), MEDIA_API_URL: apiInternalUrl, MEDIA_API_SECRET: internalSecret ?? '', MEDIA_PROXY: `127.0.0.1:${proxyPort}`, ...(spoolDir ? { MEDIA_SPOOL_DIR: spoolDir } : {}) },
  });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`media worker exited with code ${proc.exitCode}:\n${logTail(log)}`);
    if ((await sipOptions(port, 300)) === 200) {
      // kill(): an abrupt death (tests of the dispatcher taking a dead worker out).
      const kill = () => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } };
      return { stop, kill, exited, address: `127.0.0.1:${port}`, log, pid: proc.pid };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`media worker did not answer on udp ${port} within ${timeoutMs} ms:\n${logTail(log)}`);
}
