import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from '../../../../scripts/lib/stack.mjs';
import { kamailioLib } from '../../../test/script-libs';
import { until } from '../../../test/api-process';

/**
 * npm start's supervision (issue 41): the whole stack as `npm start` runs it (`startStack` with
 * `supervise`, embedded PGlite, Kamailio, the media worker, the demo carrier). A process killed
 * with SIGKILL is started again with a line in the log; stopping the stack ends every process,
 * the restarted ones included.
 */
describe('npm start supervises its processes', () => {
  let stack: Stack;
  let dir: string;
  let apiPort: number;
  let mediaPort: number;
  /** The media worker the supervisor started again (the first test), which the stop must end too. */
  let restartedWorker: number | null = null;
  const lines: string[] = [];
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    const lib = await kamailioLib();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-supervisor-'));
    // A block of ports nobody else's stack uses: the API's and those derived from it (+1 … +96), and
    // its web port 1000 below. Under 20100, where npm test's lanes pick their random ports
    // (scripts/lib/ports.mjs): with the block among them, another lane could take one of its ports
    // the moment it was free (the killed worker's, before the supervisor started it again).
    apiPort = 11_000 + Math.floor(Math.random() * 80) * 100;
    mediaPort = lib.sipPorts(apiPort).mediaPort;
    spy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    stack = await lib.startStack({ webPort: apiPort - 1000, apiPort, dataDir: join(dir, 'pglite'), quiet: true, demoCarrier: true, trunkAllowedNetworks: '127.0.0.1/32', supervise: true });
    if (!stack.sip) throw new Error(`Kamailio did not start: ${stack.sipError}`);
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    spy?.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  });

  const healthy = async () => (await fetch(`http://127.0.0.1:${apiPort}/health`).catch(() => null))?.ok ?? false;
  /** Whether a process of that pid still runs (signal 0 only asks). */
  const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
  /** What holds UDP `port`, as ss says it (process name and pid), for a failure's message. */
  const udpHolder = (port: number): string => execFileSync('ss', ['-Hlunp', `sport = :${port}`]).toString().trim();
  /** The pid of the process with a UDP socket on `port` (ss), or null. */
  const udpOwner = (port: number): number | null => {
    const out = execFileSync('ss', ['-Hlunp', `sport = :${port}`]).toString();
    const m = /pid=(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  };

  it('starts a killed API again, and a killed media worker', async () => {
    const lib = await kamailioLib();
    const first = stack.api.pid!;
    process.kill(first, 'SIGKILL');
    await until('a new API answering', async () => stack.api.pid !== first && (await healthy()), (ok) => ok, 120_000);
    expect(lines.join('\n')).toMatch(/\[giám sát\] API đã dừng \(SIGKILL\); khởi động lại sau 1 s/);
    expect(lines.join('\n')).toMatch(/\[giám sát\] API đã chạy lại/);

    const worker = udpOwner(mediaPort);
    expect(worker).not.toBeNull();
    process.kill(worker!, 'SIGKILL');
    await until('a new media worker answering OPTIONS', async () => udpOwner(mediaPort) !== worker && (await lib.sipOptions(mediaPort, 300)) === 200, (ok) => ok, 60_000);
    expect(lines.join('\n')).toMatch(/\[giám sát\] Máy chủ âm thanh đã dừng \(SIGKILL\)/);
    restartedWorker = udpOwner(mediaPort);
  }, 240_000);

  it('stops every process it started, the restarted ones included', async () => {
    const lib = await kamailioLib();
    const api = stack.api;
    const kamailio = udpOwner(lib.sipPorts(apiPort).udpPort);
    expect(restartedWorker).not.toBeNull();
    expect(kamailio).not.toBeNull();
    await stack.stop();
    expect(api.exitCode !== null || api.signalCode !== null).toBe(true);
    expect(await healthy()).toBe(false);
    // The processes themselves, not whoever holds their ports now: the other lanes of npm test pick
    // random UDP ports of the same range, and one may take a port the moment it is free (ci1 of the
    // twentieth session: "pid 25711" on the media port right after the stop, not known to be ours).
    // Each object says, when it fails, what ss sees on the port.
    expect({ worker: restartedWorker, alive: alive(restartedWorker!), ss: udpHolder(mediaPort) }).toMatchObject({ alive: false });
    expect({ owner: udpOwner(mediaPort), ss: udpHolder(mediaPort) }).not.toMatchObject({ owner: restartedWorker });
    // Kamailio's children are reaped by whoever adopts them, so its pid is asked of its port instead.
    const sipPort = lib.sipPorts(apiPort).udpPort;
    expect({ owner: udpOwner(sipPort), ss: udpHolder(sipPort) }).not.toMatchObject({ owner: kamailio });
    // Nothing starts again after the stop (a supervisor's pending restart is cancelled).
    await new Promise((r) => setTimeout(r, 2500));
    expect(await healthy()).toBe(false);
  }, 60_000);
});
