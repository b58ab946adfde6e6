import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Helpers of the call tests that involve the media worker (calls.integration.test.ts). */
export { Ear, toneWav } from './rtp-ear';

const MEDIA_DIR = resolve(__dirname, '../../../../media');
export const mediaInstalled = () => existsSync(join(MEDIA_DIR, 'node_modules/.bin/tsx'));

/** A worker process: node itself with tsx's loader (not tsx's CLI, which forks), so killing it kills the worker. */
export function spawnMediaWorker(o: { port: number; apiUrl: string; proxyPort: number }): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(MEDIA_DIR, 'src/main.ts')], {
    cwd: MEDIA_DIR,
    env: { ...process.env, MEDIA_PORT: String(o.port), MEDIA_API_URL: o.apiUrl, MEDIA_PROXY: `127.0.0.1:${o.proxyPort}` },
    stdio: ['ignore', 'ignore', process.env.MEDIA_LOG ? 'inherit' : 'ignore'],
  });
}
