import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SipUdpClient } from '@tongdai/testkit/sip-client';
import { freePort } from './test-ports';

/** The process npm start runs (scripts/lib/demo-carrier.mjs passes these variables). */
const run = (env: Record<string, string>) => {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'main.ts')], { cwd: join(__dirname, '..'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (b: Buffer) => (out += b));
  proc.stderr.on('data', (b: Buffer) => (out += b));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, exited, output: () => out };
};

// Each test starts `node --import tsx main.ts`, which compiles the carrier and the media package first: under a
// loaded CI machine (e2e beside it) that took over 20 s before a first line (stop 51). No test here judges time.
jest.setTimeout(120_000);

describe('demo carrier process', () => {
  const cache = mkdtempSync(join(tmpdir(), 'demo-carrier-main-'));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('serves SIP and its control API on the ports it is given, and stops on SIGTERM', async () => {
    const [sip, http] = [await freePort(true), await freePort(false)];
    const p = run({ DEMO_CARRIER_PORT: String(sip), DEMO_CARRIER_HTTP_PORT: String(http), DEMO_CARRIER_ACCOUNTS: 'u1:p:with:colons', DEMO_CARRIER_PROXY: '127.0.0.1:5999', DEMO_CARRIER_CACHE: cache });
    try {
      let health: { sip: string; realm: string } | null = null;
      let exited = false;
      void p.exited.then(() => (exited = true));
      while (!health && !exited) {
        try {
          health = (await (await fetch(`http://127.0.0.1:${http}/health`)).json()) as { sip: string; realm: string };
        } catch {
          await new Promise((r) => setTimeout(r, 150));
        }
      }
      if (!health) throw new Error(`the carrier exited before its control API answered:\n${p.output()}`);
      expect(health).toEqual(expect.objectContaining({ sip: `udp 127.0.0.1:${sip}`, realm: 'demo-carrier' }));
      const ua = await new SipUdpClient(sip).open();
      try {
        expect((await ua.register('u1', '127.0.0.1', 'p:with:colons')).status).toBe(200);
      } finally {
        ua.close();
      }
      expect(p.output()).toMatch(/calls to hotlines go to 127\.0\.0\.1:5999/);
      // The population's defaults, and how to change them on this control port.
      expect(p.output()).toMatch(new RegExp(`population: calls to 09995xxxxx meet people: 30 % answer .*10 % busy .*curl -X PUT http://127\\.0\\.0\\.1:${http}/population`));
    } finally {
      p.proc.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);
  });

  it('refuses to start without an account', async () => {
    const p = run({ DEMO_CARRIER_PORT: String(await freePort(true)), DEMO_CARRIER_ACCOUNTS: '', DEMO_CARRIER_CACHE: cache });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('DEMO_CARRIER_ACCOUNTS is empty');
  });
});
