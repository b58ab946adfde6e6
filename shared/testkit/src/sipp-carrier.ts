import { inDialogRequest, invite, msg, provisional, replyHead, scenario, SDP } from './sipp';

/**
 * sipp on both sides of a carrier that wants digest (issue 15): the carrier itself (a UAS that
 * challenges every INVITE and checks the answer with sipp's verifyauth), and a caller that
 * authenticates to a carrier with 407 and listens to what it plays (the demo carrier's tests).
 */

/**
 * A carrier's server: INVITE → 401 (WWW-Authenticate, realm `realm`, qop=auth) → ACK; the INVITE with
 * credentials is checked (verifyauth on user/password): right → 180, 200 + SDP, ACK, waits for
 * the BYE; wrong → 403 and the call counts as failed in sipp's statistics. 401, not 407: sipp
 * 3.6's verifyauth reads only the Authorization header (a 407 is answered with Proxy-Authorization,
 * which it never accepts, seen here); carriers use both and a UAC answers both the same way.
 */
export function digestCarrierScenario(o: { user: string; password: string; realm?: string }): string {
  const realm = o.realm ?? 'demo-carrier';
  const head = (status: string, toTag = true) => replyHead(status, toTag);
  return scenario('carrier-digest', [
    '  <recv request="INVITE" crlf="true"/>',
    msg([...head('401 Unauthorized'), `WWW-Authenticate: Digest realm="${realm}", nonce="[call_id]-[pid]", qop="auth", algorithm=MD5`, 'Content-Length: 0']),
    // Optional: at 1000 cps the INVITE with credentials sometimes overtakes the ACK (seen: 1 % of calls aborted).
    '  <recv request="ACK" optional="true"/>',
    `  <recv request="INVITE" crlf="true">\n    <action><verifyauth assign_to="authvalid" username="${o.user}" password="${o.password}"/></action>\n  </recv>`,
    '  <nop hide="true" test="authvalid" next="good"/>',
    msg([...head('403 Forbidden'), 'Content-Length: 0']),
    '  <recv request="ACK" next="bad"/>',
    '  <label id="good"/>',
    msg([...head('180 Ringing'), 'Content-Length: 0']),
    msg([...head('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    '  <recv request="BYE"/>',
    msg([...head('200 OK', false), 'Content-Length: 0']),
    '  <nop hide="true" next="end"/>',
    // A refused call must not count as successful: an unexpected message ends it as failed.
    '  <label id="bad"/>',
    '  <recv request="NEVER" timeout="1"/>',
    '  <label id="end"/>',
  ].join('\n'));
}

/**
 * A caller of a carrier that wants digest on INVITE: [service]@[remote_ip]:[remote_port] from
 * [caller], P-Asserted-Identity [pai], SDP pointing at [rtp_port] (an Ear), credentials written
 * in. After the 200: `talkMs` then BYE, or (`hangsUp: 'remote'`) waits for the carrier's BYE.
 */
export function digestCallerScenario(o: { user: string; password: string; hangsUp: 'caller' | 'remote'; talkMs?: number }): string {
  const from = 'sip:[caller]@[local_ip]:[local_port]';
  const to = '[remote_ip]:[remote_port]';
  const sdp = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio [rtp_port] RTP/AVP 0 101', 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv'].join('\n');
  const call = (cseq: number, extra: string[]) => invite(from, to, cseq, ['P-Asserted-Identity: <sip:[pai]@[local_ip]>', ...extra], sdp);
  const inDialog = (method: string, cseq: number) => inDialogRequest(from, to, method, cseq);
  return scenario('digest-caller', [
    call(1, []),
    '  <recv response="100" optional="true"/>',
    '  <recv response="407" auth="true"/>',
    msg([`ACK sip:[service]@${to} SIP/2.0`, '[last_Via:]', '[last_From:]', '[last_To:]', '[last_Call-ID:]', 'CSeq: 1 ACK', 'Max-Forwards: 70', 'Content-Length: 0']),
    call(2, [`[authentication username=${o.user} password=${o.password}]`]),
    provisional,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialog('ACK', 2),
    ...(o.hangsUp === 'remote'
      ? ['  <recv request="BYE"/>', msg(['SIP/2.0 200 OK', '[last_Via:]', '[last_From:]', '[last_To:]', '[last_Call-ID:]', '[last_CSeq:]', 'Content-Length: 0'])]
      : [`  <pause milliseconds="${o.talkMs ?? 1000}"/>`, inDialog('BYE', 3), '  <recv response="200" crlf="true"/>']),
  ].join('\n'));
}
