import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrmCall } from '@tongdai/contracts';
import { bearer, demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import { registerDemoPhones, startCallChain, type CallChain } from '../../../test/call-plane';
import type { CallChainLib } from '../../../test/script-libs';
import { pbxConfigChanged } from '../pbx/config-cache';
import { Ear, toneUlaw } from '@tongdai/testkit/rtp-ear';
import { busyScenario, calleeHangsUpScenario, earPhoneScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { dialerTelecom } from '../../../test/dialer-fixture';

/**
 * A CRM's click-to-call (issue 39, ADR 0066) through real processes: POST /crm/v1/calls with a key holding
 * calls.originate; the media worker, asking the API for calls to place, rings the agent's extension 101 first
 * (a sipp phone registered through Kamailio, shown "Gọi cho <number>"); on its answer the customer's leg goes out
 * as 101's own call — the outbound rule's switchboard (sipp as the carrier and the customer behind it) and caller
 * ID — and the two are bridged: the agent hears the customer. The call's status goes through to completed, and
 * its record is an outbound call of 101 to that number presenting the rule's caller ID.
 */
const HOTLINE = '02873009898';

describe('click-to-call (Kamailio + media worker + sipp as the agent and the customer)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled() }, 'sudo node scripts/lib/system.mjs test');
  let t: TestApp;
  let chain: CallChain;
  let dir: string;
  let carrierPort: number;
  let agentPort: number;
  let lib: CallChainLib;
  let demo: number;
  let key: string;
  const env = { ring: process.env.CRM_RING_SECONDS, agent: process.env.CRM_AGENT_RING_SECONDS };
  const until = <T>(what: string, get: () => Promise<T>, ok: (x: T) => boolean, ms?: number) => chain.until(what, get, ok, ms);
  const get = async (id: string): Promise<CrmCall> => {
    const res = await t.app.inject({ method: 'GET', url: `/crm/v1/calls/${id}`, headers: bearer(key) });
    expect([res.statusCode, res.body]).toEqual([200, res.body]);
    return res.json();
  };
  const start = async (to: string): Promise<string> => {
    const res = await t.app.inject({ method: 'POST', url: '/crm/v1/calls', headers: bearer(key), payload: { agent: '101', to, external_ref: 'crm-lead-1' } });
    expect([res.statusCode, res.body]).toEqual([202, res.body]);
    return res.json().id;
  };
  /** Every status the call passes through, read every 100 ms until it ends. */
  const follow = async (id: string, ms = 30_000): Promise<{ seen: string[]; last: CrmCall }> => {
    const seen: string[] = [];
    const last = await until('the call ended', async () => {
      const c = await get(id);
      if (seen[seen.length - 1] !== c.status) seen.push(c.status);
      return c;
    }, (c) => c.status === 'completed' || c.status === 'failed', ms);
    return { seen, last };
  };
  const agentPhone = (name: string, xml: string, keys: Record<string, string> = {}) =>
    runSipp({ dir, name, xml, args: ['-i', '127.0.0.1', '-p', String(agentPort), '-m', '1'], keys, timeoutS: 60 });
  const customerPhone = (name: string, xml: string, extra: string[] = []) =>
    runSipp({ dir, name, xml, args: ['-i', '127.0.0.1', '-p', String(carrierPort), '-m', '1', ...extra], timeoutS: 60 });
  const listening = () => new Promise((r) => setTimeout(r, 300));

  beforeAll(async () => {
    process.env.CRM_RING_SECONDS = '4';
    process.env.CRM_AGENT_RING_SECONDS = '3';
    t = await startTestApp({ switchboardHosts: loopbackCarrierHosts() });
    const admin = (await demoHeaders(t.app)).admin;
    dir = mkdtempSync(join(tmpdir(), 'tongdai-click-calls-'));
    writeFileSync(join(dir, 'customer.ulaw'), toneUlaw(12, 440));
    chain = await startCallChain(t, dir);
    lib = chain.lib;
    carrierPort = await lib.freeUdpPort();
    agentPort = await lib.freeUdpPort();
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    // Mobile numbers out through the carrier's switchboard with the hotline as caller ID (the rule's).
    await dialerTelecom(t.db, demo, carrierPort, HOTLINE);
    pbxConfigChanged(demo);
    await registerDemoPhones(chain.internal, chain.sipUdp, { '101': agentPort, '102': await lib.freeUdpPort() });
    const made = await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: admin, payload: { name: 'CRM thật', scopes: ['calls.originate'] } });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    key = made.json().data.secret;
    // Kamailio has loaded the switchboards (the carrier's address is known to it).
    await new Promise((r) => setTimeout(r, 3500));
  }, 60_000);

  afterAll(async () => {
    for (const [k, v] of [['CRM_RING_SECONDS', env.ring], ['CRM_AGENT_RING_SECONDS', env.agent]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await chain?.stop();
    await t?.close();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("rings the agent first (the customer's number shown), then calls the customer as the agent's own call out, bridges them, and records the agent's outbound call", async () => {
    const ear = await Ear.open();
    // The agent's phone must see the customer's number as the caller, with "Gọi cho …" as its name.
    const agent = agentPhone('agent-answers', earPhoneScenario(400, { requireHeader: { name: 'From', regexp: 'G.*i cho 0912000801. .sip:0912000801@' } }), { rtp_port: String(ear.port) });
    const customer = customerPhone('customer-talks', calleeHangsUpScenario(1000, 3000, 'customer.ulaw'), ['-mi', '127.0.0.1', '-mp', String(await lib.freeMediaPort())]);
    let id = '';
    try {
      await listening();
      id = await start('0912000801');
      const { seen, last } = await follow(id);
      expect([(await customer.done).code, (await agent.done).code]).toEqual([0, 0]);
      expect(last).toMatchObject({ status: 'completed', cause: null, agent: '101', to: '84912000801', external_ref: 'crm-lead-1' });
      // Polled every 100 ms: the ringing, connecting and talking states are each long enough to be seen.
      expect(seen).toEqual(expect.arrayContaining(['ringing_agent', 'ringing_customer', 'answered', 'completed']));
      expect(seen.indexOf('ringing_agent')).toBeLessThan(seen.indexOf('ringing_customer'));
      expect(seen.indexOf('ringing_customer')).toBeLessThan(seen.indexOf('answered'));
      expect(last.duration_s).toBeGreaterThanOrEqual(2);
      for (const at of ['ringing_agent_at', 'agent_answered_at', 'ringing_customer_at', 'answered_at', 'ended_at'] as const) expect(last[at]).toEqual(expect.any(String));
      expect(Date.parse(last.agent_answered_at!)).toBeLessThanOrEqual(Date.parse(last.answered_at!));
      expect(last.call_id).toBeTruthy();
    } finally {
      ear.close();
    }
    // The agent heard the customer's 440 Hz through the bridge.
    expect(ear.packets.length).toBeGreaterThan(50);
    expect(ear.tone(440, 0, Infinity)).toBeGreaterThan(1e5);

    // The record: 101's outbound call to the number, presenting the rule's caller ID, answered, through the switchboard.
    const final = await until('the call record', () => get(id), (c) => c.cdr_id !== null, 15_000);
    const cdr = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: string; call_id: string; direction: string; caller: string; callee: string; did: string | null; extension: string | null; disposition: string; billsec: number }>(
        'select id, call_id, direction, caller, callee, did, extension, disposition, billsec from cdrs where call_id = $1', [final.call_id])).rows);
    expect(cdr).toHaveLength(1);
    expect(cdr[0]).toMatchObject({ direction: 'outbound', caller: '101', callee: '0912000801', did: HOTLINE, disposition: 'ANSWERED' });
    expect(Number(cdr[0].id)).toBe(final.cdr_id);
    expect(cdr[0].billsec).toBeGreaterThanOrEqual(2);
    // The agent's ringing leg left no record of its own: one record for the click.
    const others = await t.db.withTenant(demo, async (tx) => (await tx.query("select call_id from cdrs where started_at > now() - interval '2 minutes' and call_id <> $1", [final.call_id])).rows);
    expect(others).toEqual([]);
  }, 90_000);

  it("a busy customer fails the call as customer_busy and the agent is hung up; an agent who does not answer fails it as agent_no_answer and nobody is called", async () => {
    const ear = await Ear.open();
    const agent = agentPhone('agent-answers-2', earPhoneScenario(300), { rtp_port: String(ear.port) });
    const busy = customerPhone('customer-busy', busyScenario());
    try {
      await listening();
      const id = await start('0912000802');
      const { last } = await follow(id);
      expect(last).toMatchObject({ status: 'failed', cause: 'customer_busy', answered_at: null });
      expect(last.ringing_customer_at).toEqual(expect.any(String));
      expect([(await busy.done).code, (await agent.done).code]).toEqual([0, 0]);
    } finally {
      ear.close();
    }

    // Nobody answers 101 now (its phone is gone): the agent's leg rings out (3 s).
    const silent = await start('0912000803');
    const ended = await follow(silent, 20_000);
    expect(ended.last.status).toBe('failed');
    expect(['agent_no_answer', 'failed', 'agent_busy']).toContain(ended.last.cause);
    expect(ended.last.ringing_customer_at).toBeNull();
  }, 90_000);
});
