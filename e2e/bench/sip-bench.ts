// `npm run bench`, SIP part (issue 5): on loopback, how long a phone takes to register with the
// API-backed digest (challenge, then the authenticated REGISTER), and how long from sending an
// authenticated INVITE until the callee's 180 Ringing comes back through Kamailio and the API's
// plan. 20 rounds each (BENCH_SIP_ROUNDS): the median and the p99 beside issue 38's goals (≤ 10 and ≤ 15 ms
// p99). The phone waits 20 ms between its 180 and its 486: sent back to back, two of Kamailio's workers relayed
// them at once and the 486 could overtake the 180 (a round of 200 then "met 486" with no 180 at all).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerContact } from '@tongdai/testkit/register-contact';
import { SipUdpClient } from '@tongdai/testkit/sip-client';
import { runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { freeUdpPort } from '../../scripts/lib/ports.mjs';
import type { StackSip } from '../../scripts/lib/stack.mjs';
import { NOT_INSTALLED, pct } from './calls-bench.ts';
import type { Row } from './sections.ts';

const ROUNDS = Number(process.env.BENCH_SIP_ROUNDS ?? 20);
const DOMAIN = 'demo.tongdai.local';

/** A phone that rings (180), then 20 ms later says busy (486) so the caller's INVITE completes; ROUNDS times. */
const ringThenBusy = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="ring-then-busy">
  <recv request="INVITE" crlf="true"/>
  <send><![CDATA[
SIP/2.0 180 Ringing
[last_Via:]
[last_From:]
[last_To:];tag=[pid]SIPpTag01[call_number]
[last_Call-ID:]
[last_CSeq:]
[last_Record-Route:]
Contact: <sip:[local_ip]:[local_port];transport=[transport]>
Content-Length: 0
]]></send>
  <pause milliseconds="20"/>
  <send><![CDATA[
SIP/2.0 486 Busy Here
[last_Via:]
[last_From:]
[last_To:];tag=[pid]SIPpTag01[call_number]
[last_Call-ID:]
[last_CSeq:]
Content-Length: 0
]]></send>
  <recv request="ACK"/>
</scenario>
`;

// Every round must succeed (it throws otherwise): a figure here always measured something.
export async function sipFigures(o: { sip: StackSip | null; passwords: { '101': string; '102': string } }): Promise<Row[]> {
  if (!sippInstalled() || !o.sip) return [['SIP register / INVITE→180', 'skipped', '—', NOT_INSTALLED]];
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-sip-'));
  const registers: number[] = [];
  const ringing: number[] = [];
  const phonePort = await freeUdpPort();
  const phone = runSipp({ dir, name: 'ring-then-busy', xml: ringThenBusy, args: ['-i', '127.0.0.1', '-p', String(phonePort), '-m', String(ROUNDS)], timeoutS: 120 });
  const ua = await new SipUdpClient(o.sip.udpPort).open();
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      const r = await ua.register('101', DOMAIN, o.passwords['101']);
      if (r.status !== 200) throw new Error(`REGISTER 101: ${r.status}`);
      registers.push(performance.now() - t0);
    }
    // 102 rings on the sipp phone (the registration points there).
    if ((await registerContact({ proxyPort: o.sip.udpPort, user: '102', domain: DOMAIN, password: o.passwords['102'], contactPort: phonePort })) !== 200) throw new Error('REGISTER 102');
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < ROUNDS; i++) {
      let sentAt = 0;
      let ringAt = 0;
      ua.onProvisional = (status) => {
        if (status === 180 && !ringAt) ringAt = performance.now();
      };
      ua.onSend = (method, authenticated) => {
        if (method === 'INVITE' && authenticated) sentAt = performance.now();
      };
      const invite = () => ua.request({ method: 'INVITE', from: `sip:101@${DOMAIN}`, to: `sip:102@${DOMAIN}`, uri: `sip:102@${DOMAIN}`, authUser: '101', password: o.passwords['101'] });
      let r = await invite();
      // The first round may find 102 still busy with the sections before (the carrier's and the wall's calls
      // end as this one starts: 486 at load 8, ci6 of the twenty-fifth session): asked again for up to 10 s,
      // unmeasured; a round that never rings still fails the section.
      for (let wait = 0; i === 0 && !ringAt && r.status === 486 && wait < 20; wait++) {
        await new Promise((done) => setTimeout(done, 500));
        r = await invite();
      }
      if (!ringAt) throw new Error(`INVITE 102: no 180 (final ${r.status})`);
      ringing.push(ringAt - sentAt);
    }
  } finally {
    ua.close();
    phone.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const range = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
  return [
    [`REGISTER with digest against the API (challenge + authenticated), ${ROUNDS} rounds`, range(registers), 'p99 ≤ 10 ms'],
    [`Authenticated INVITE → 180 Ringing through Kamailio and the API's plan, ${ROUNDS} rounds`, range(ringing), 'p99 ≤ 15 ms'],
  ];
}
