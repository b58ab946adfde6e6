import { msg, replyHead, scenario, SDP } from './sipp';

/**
 * sipp as a carrier's SIP trunk facing Kamailio (issue 15, ADR 0036): a registrar that wants
 * digest on REGISTER, and a trunk that takes calls (digest on INVITE, checks what it receives)
 * or refuses them. Challenges are 401 (WWW-Authenticate): sipp 3.6's verifyauth reads only the
 * Authorization header; Kamailio's uac answers 401 and 407 the same way.
 */

const challenge = (realm: string) => `WWW-Authenticate: Digest realm="${realm}", nonce="[call_id]-[pid]", algorithm=MD5`;

/** Credentials checked with verifyauth: right → `label`, wrong → 401 again, and the call counts as failed. */
function verified(request: string, user: string, password: string, label: string, checks = ''): string[] {
  return [
    `  <recv request="${request}" crlf="true">\n    <action>\n      <verifyauth assign_to="authvalid" username="${user}" password="${password}"/>${checks}\n    </action>\n  </recv>`,
    `  <nop hide="true" test="authvalid" next="${label}"/>`,
  ];
}

/**
 * A carrier's registrar: REGISTER → 401; the REGISTER with credentials is checked: right →
 * 200 OK (the Contact echoed, Expires as asked); wrong → 401 again, and sipp counts it failed.
 */
export function registrarScenario(o: { user: string; password: string; realm?: string }): string {
  const unauthorized = msg([...replyHead('401 Unauthorized').filter((l) => !l.startsWith('Contact')), challenge(o.realm ?? 'carrier.test'), 'Content-Length: 0']);
  const expires = '\n      <ereg regexp="[0-9]+" search_in="hdr" header="Expires:" assign_to="expires"/>';
  return scenario('carrier-registrar', [
    '  <recv request="REGISTER" crlf="true"/>',
    unauthorized,
    ...verified('REGISTER', o.user, o.password, 'good', expires),
    unauthorized,
    '  <recv request="NEVER" timeout="1" next="end"/>',
    '  <label id="good"/>',
    msg([...replyHead('200 OK').filter((l) => !l.startsWith('Contact')), '[last_Contact:]', 'Expires: [$expires]', 'Content-Length: 0']),
    '  <label id="end"/>',
  ].join('\n'));
}

/**
 * A carrier's trunk taking a call: `refuse` → that final status at once (e.g. 503: the trunk is
 * down, Kamailio fails over). Otherwise, with `auth`, INVITE → 401, and the INVITE with
 * credentials is checked; `expect` are regexps the INVITE's headers must match (From,
 * P-Asserted-Identity…: a mismatch fails the call); then 180, 200 after `answerMs`, waits for the BYE.
 */
export function trunkScenario(o: { auth?: { user: string; password: string; realm?: string }; expect?: Record<string, string>; refuse?: number; answerMs?: number }): string {
  if (o.refuse) {
    return scenario(`trunk-refuses-${o.refuse}`, ['  <recv request="INVITE" crlf="true"/>', msg([...replyHead(`${o.refuse} Refused`), 'Content-Length: 0']), '  <recv request="ACK"/>'].join('\n'));
  }
  const checks = Object.entries(o.expect ?? {})
    .map(([header, re], i) => `\n      <ereg regexp="${re}" search_in="hdr" header="${header}:" check_it="true" assign_to="seen${i}"/>`)
    .join('');
  // sipp refuses a variable that is never read: the checked values go back in the 180.
  const seen = Object.keys(o.expect ?? {}).map((_, i) => `X-Seen-${i}: [$seen${i}]`);
  const answer = [
    msg([...replyHead('180 Ringing'), ...seen, 'Content-Length: 0']),
    `  <pause milliseconds="${o.answerMs ?? 100}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    '  <recv request="BYE"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
  ];
  if (!o.auth) return scenario('trunk-answers', [`  <recv request="INVITE" crlf="true">${checks ? `\n    <action>${checks}\n    </action>\n  ` : ''}</recv>`, ...answer].join('\n'));
  return scenario('trunk-digest', [
    '  <recv request="INVITE" crlf="true"/>',
    msg([...replyHead('401 Unauthorized'), challenge(o.auth.realm ?? 'carrier.test'), 'Content-Length: 0']),
    '  <recv request="ACK"/>',
    ...verified('INVITE', o.auth.user, o.auth.password, 'good', checks),
    msg([...replyHead('403 Forbidden'), 'Content-Length: 0']),
    '  <recv request="ACK"/>',
    '  <recv request="NEVER" timeout="1" next="end"/>',
    '  <label id="good"/>',
    ...answer,
    '  <label id="end"/>',
  ].join('\n'));
}
