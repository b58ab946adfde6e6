import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * sipp scenarios for the call tests and the bench: a carrier (UAC) calling a DID through
 * Kamailio, and phones (UAS) answering or just ringing. Signalling only; the offer carries a
 * PCMU SDP so media relays can be exercised when they apply.
 */

export const sippInstalled = (): boolean => ['/usr/bin/sipp', '/usr/local/bin/sipp'].some((p) => existsSync(p));

export const SDP = ['v=0', 'o=- 1 1 IN IP4 [local_ip]', 's=-', 'c=IN IP4 [local_ip]', 't=0 0', 'm=audio [media_port] RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', 'a=sendrecv'].join('\n');

export const scenario = (name: string, body: string) => `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<scenario name="${name}">\n${body}\n</scenario>\n`;
export const msg = (lines: string[], attrs = '') => `  <send${attrs}><![CDATA[\n${lines.join('\n')}\n]]></send>`;

export const replyHead = (status: string, toTag = true) => [
  `SIP/2.0 ${status}`,
  '[last_Via:]',
  '[last_From:]',
  toTag ? '[last_To:];tag=[pid]SIPpTag01[call_number]' : '[last_To:]',
  '[last_Call-ID:]',
  '[last_CSeq:]',
  '[last_Record-Route:]',
  'Contact: <sip:[local_ip]:[local_port];transport=[transport]>',
];

/** An INVITE from `from` to [service]@`to` with an SDP offer (sipp's own [media_port] unless `sdp`). */
export const invite = (from: string, to: string, cseq: number, extra: string[] = [], sdp = SDP) =>
  msg(
    [
      `INVITE sip:[service]@${to} SIP/2.0`,
      'Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]',
      `From: <${from}>;tag=[pid]SIPpTag00[call_number]`,
      `To: <sip:[service]@${to}>`,
      'Call-ID: [call_id]',
      `CSeq: ${cseq} INVITE`,
      'Contact: <sip:[caller]@[local_ip]:[local_port]>',
      'Max-Forwards: 70',
      ...extra,
      'Content-Type: application/sdp',
      'Content-Length: [len]',
      '',
      sdp,
    ],
    ' retrans="500"',
  );

/** A request inside the dialog the INVITE above made (ACK, BYE, INFO), to [next_url] by the route set. */
export const inDialogRequest = (from: string, to: string, method: string, cseq: number, body?: { type: string; lines: string[] }) =>
  msg([
    `${method} [next_url] SIP/2.0`,
    'Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]',
    '[routes]',
    `From: <${from}>;tag=[pid]SIPpTag00[call_number]`,
    `To: <sip:[service]@${to}>[peer_tag_param]`,
    'Call-ID: [call_id]',
    `CSeq: ${cseq} ${method}`,
    'Contact: <sip:[caller]@[local_ip]:[local_port]>',
    'Max-Forwards: 70',
    ...(body ? [`Content-Type: ${body.type}`, 'Content-Length: [len]', '', ...body.lines] : ['Content-Length: 0']),
  ]);
/** The far end's BYE, answered (the scenario's caller stays until the other side hangs up). */
const farEndHangsUp = () => ['  <recv request="BYE"/>', msg(['SIP/2.0 200 OK', '[last_Via:]', '[last_From:]', '[last_To:]', '[last_Call-ID:]', '[last_CSeq:]', 'Content-Length: 0'])];
export const provisional = ['100', '180', '180', '183'].map((c) => `  <recv response="${c}" optional="true"/>`).join('\n');
/** ACK of a final refusal (same branch as the INVITE, hop by hop). */
const ackRefusal = (to: string, cseq: number) =>
  msg([`ACK sip:[service]@${to} SIP/2.0`, '[last_Via:]', '[last_From:]', '[last_To:]', '[last_Call-ID:]', `CSeq: ${cseq} ACK`, 'Max-Forwards: 70', 'Content-Length: 0']);

/**
 * After the INVITE: the final answer `expect`; 200 → ACK, hold, BYE (`holdMs: 'far-end'`: ACK, then
 * wait for the other side's BYE and answer it); anything else → ACK.
 */
function outcome(o: { name: string; from: string; to: string; cseq: number; expect: number | number[]; holdMs: number | 'far-end'; head: string[] }): string {
  if (Array.isArray(o.expect)) {
    // One of several refusals: each but the last optional, all leading to the ACK.
    const [last, ...others] = [...o.expect].reverse();
    const finals = [...others.reverse().map((c) => `  <recv response="${c}" optional="true" next="9"/>`), `  <recv response="${last}"/>`, '  <label id="9"/>'];
    return scenario(`${o.name}-${o.expect.join('-')}`, [...o.head, provisional, ...finals, ackRefusal(o.to, o.cseq)].join('\n'));
  }
  if (o.expect !== 200) return scenario(`${o.name}-${o.expect}`, [...o.head, provisional, `  <recv response="${o.expect}"/>`, ackRefusal(o.to, o.cseq)].join('\n'));
  const inDialog = (method: string, cseq: number) => inDialogRequest(o.from, o.to, method, cseq);
  return scenario(`${o.name}-answered`, [
    ...o.head,
    provisional,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialog('ACK', o.cseq),
    ...(o.holdMs === 'far-end'
      ? farEndHangsUp()
      : [`  <pause milliseconds="${o.holdMs}"/>`, inDialog('BYE', o.cseq + 1), '  <recv response="200" crlf="true"/>']),
  ].join('\n'));
}

/**
 * A carrier calling [service] (the DID) from [caller]; `expect` is the final status:
 * 200 → ACK, hold `holdMs`, BYE (`'far-end'`: until the callee hangs up); anything else → ACK of
 * the refusal; several refusals (an array, 200 not among them): any one of them. [at] → X-Tongdai-At.
 */
export function carrierScenario(expect: number | number[], holdMs: number | 'far-end' = 300, sdp = SDP): string {
  const from = 'sip:[caller]@carrier.example';
  const to = '[remote_ip]:[remote_port]';
  return outcome({ name: 'carrier', from, to, cseq: 1, expect, holdMs, head: [invite(from, to, 1, ['X-Tongdai-At: [at]'], sdp)] });
}

/**
 * A carrier calling [service] from [caller] whose callee puts it on hold and takes it back: after the
 * 200 it waits for two re-INVITEs from the far end, holding (a=sendonly or inactive) then resuming
 * (a=sendrecv), and answers each. Both offers must reach it as a plain-RTP offer (RTP/AVP, no ICE, no
 * DTLS fingerprint): a browser's WebRTC offer passed through untranslated fails the call. Then it
 * talks `afterMs` more and hangs up.
 */
export function carrierHeldScenario(afterMs: number): string {
  const from = 'sip:[caller]@carrier.example';
  const to = '[remote_ip]:[remote_port]';
  const reinvite = (n: number, direction: string) =>
    `  <recv request="INVITE" crlf="true"><action>` +
    `<ereg regexp="m=audio [0-9]+ RTP/AVP " search_in="body" check_it="true" assign_to="plain${n}"/>` +
    `<ereg regexp="${direction}" search_in="body" check_it="true" assign_to="direction${n}"/>` +
    `<ereg regexp="SAVPF|a=fingerprint|a=ice-|a=candidate" search_in="body" check_it_inverse="true" assign_to="webrtc${n}"/>` +
    `</action></recv>`;
  // sipp refuses a scenario whose variable is set and never read: what each offer showed goes back in its 200.
  const answer = (n: number, direction: string) =>
    msg([...replyHead('200 OK', false), `X-Seen: [$plain${n}] [$direction${n}] [$webrtc${n}]`, 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP.replace('a=sendrecv', direction)], ' retrans="500"');
  return scenario('carrier-held', [
    invite(from, to, 1, ['X-Tongdai-At: [at]']),
    provisional,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialogRequest(from, to, 'ACK', 1),
    reinvite(1, 'a=sendonly|a=inactive'),
    answer(1, 'a=recvonly'),
    '  <recv request="ACK" crlf="true"/>',
    reinvite(2, 'a=sendrecv'),
    answer(2, 'a=sendrecv'),
    '  <recv request="ACK" crlf="true"/>',
    `  <pause milliseconds="${afterMs}"/>`,
    inDialogRequest(from, to, 'BYE', 2),
    '  <recv response="200" crlf="true"/>',
  ].join('\n'));
}

/**
 * A callee behind the carrier that answers after `answerMs`, talks `talkMs` (playing `audio`, raw µ-law
 * PCMU, when given) and then hangs up itself: a BYE from the called side along the route set, as a person
 * putting the phone down (a dialer's contact, a voice-OTP callee).
 */
export function calleeHangsUpScenario(answerMs: number, talkMs: number, audio?: string): string {
  const capture = '<action><ereg regexp=".*" search_in="hdr" header="From:" assign_to="caller_from"/><ereg regexp="[^;]*" search_in="hdr" header="To:" assign_to="me"/></action>';
  return scenario('callee-hangs-up', [
    `  <recv request="INVITE" crlf="true" rrs="true">${capture}</recv>`,
    msg([...replyHead('180 Ringing'), 'Content-Length: 0']),
    `  <pause milliseconds="${answerMs}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    ...(audio ? [`  <nop><action><exec rtp_stream="${audio},-1,0"/></action></nop>`] : []),
    `  <pause milliseconds="${talkMs}"/>`,
    ...(audio ? ['  <nop><action><exec rtp_stream="pause"/></action></nop>'] : []),
    msg([
      'BYE [next_url] SIP/2.0',
      'Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]',
      '[routes]',
      'From: [$me];tag=[pid]SIPpTag01[call_number]',
      'To: [$caller_from]',
      'Call-ID: [call_id]',
      'CSeq: 1 BYE',
      'Contact: <sip:[local_ip]:[local_port];transport=[transport]>',
      'Max-Forwards: 70',
      'Content-Length: 0',
    ]),
    '  <recv response="200"/>',
  ].join('\n'));
}

/** An offer of G.711 A-law only (payload 8), which the media worker does not take (488). */
export const PCMA_ONLY_SDP = SDP.replace('RTP/AVP 0', 'RTP/AVP 8').replace('a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000');

/**
 * A carrier's caller who gives up (CANCEL) `afterMs` after the first ring: 200 to the CANCEL,
 * 487 to the INVITE, ACK.
 */
export function cancellingCallerScenario(afterMs: number): string {
  const from = 'sip:[caller]@carrier.example';
  const to = '[remote_ip]:[remote_port]';
  return scenario('carrier-cancels', [
    invite(from, to, 1, ['X-Tongdai-At: [at]']),
    '  <recv response="100" optional="true"/>',
    '  <recv response="180"/>',
    `  <pause milliseconds="${afterMs}"/>`,
    // The INVITE's own branch and To (no tag): the proxy matches the CANCEL to its transaction.
    msg([`CANCEL sip:[service]@${to} SIP/2.0`, '[last_Via:]', `From: <${from}>;tag=[pid]SIPpTag00[call_number]`, `To: <sip:[service]@${to}>`, 'Call-ID: [call_id]', 'CSeq: 1 CANCEL', 'Max-Forwards: 70', 'Content-Length: 0']),
    // The 200 to the CANCEL and the 487 may cross: either order.
    '  <recv response="180" optional="true"/>',
    '  <recv response="200" optional="true"/>',
    '  <recv response="487"/>',
    ackRefusal(to, 1),
  ].join('\n'));
}

/**
 * Extension [caller]@[domain] dialling [service]: digest on the 407 (sipp cannot nest a keyword
 * in [authentication], so the credentials are written into the scenario), then as a carrier.
 * `challenge` 401: a server that asks with WWW-Authenticate (a carrier, digestCarrierScenario).
 */
export function extensionCallScenario(expect: number, auth: { user: string; password: string }, holdMs = 300, challenge: 401 | 407 = 407): string {
  const from = 'sip:[caller]@[domain]';
  const to = '[domain]';
  const head = [
    invite(from, to, 1),
    '  <recv response="100" optional="true"/>',
    `  <recv response="${challenge}" auth="true"/>`,
    ackRefusal(to, 1),
    invite(from, to, 2, [`[authentication username=${auth.user} password=${auth.password}]`]),
  ];
  return outcome({ name: 'extension', from, to, cseq: 2, expect, holdMs, head });
}

/**
 * A phone (or a carrier's server) that rings, answers after `answerMs` and waits for the BYE.
 * `fromMatches`: a regexp the INVITE's From must match, else the call fails.
 */
export function answerScenario(answerMs = 200, fromMatches?: string): string {
  const check = fromMatches
    ? `\n    <action><ereg regexp="${fromMatches}" search_in="hdr" header="From:" check_it="true" assign_to="from"/></action>\n  `
    : '';
  return scenario('phone-answers', [
    `  <recv request="INVITE" crlf="true">${check}</recv>`,
    msg([...replyHead('180 Ringing'), ...(fromMatches ? ['X-From: [$from]'] : []), 'Content-Length: 0']),
    `  <pause milliseconds="${answerMs}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    // An ACK late by more than 500 ms (a loaded machine) has the 200 sent again, and the caller ACKs each 200
    // (RFC 3261 13.2.2.4): a second ACK is the call going on, not an error (ci1 and ci4 of 2026-11-29: the
    // phone aborted on it, "unexpected message ... received 'ACK'", while the call itself went through).
    '  <recv request="ACK" optional="true"/>',
    '  <recv request="BYE"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
  ].join('\n'));
}

/** A phone that rings until the proxy cancels it (another phone answered, or the ring time ran out). */
export function ringScenario(): string {
  return scenario('phone-rings', [
    '  <recv request="INVITE" crlf="true"/>',
    msg([...replyHead('180 Ringing'), 'Content-Length: 0']),
    '  <recv request="CANCEL"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
    msg([
      'SIP/2.0 487 Request Terminated',
      '[last_Via:]',
      '[last_From:]',
      '[last_To:];tag=[pid]SIPpTag01[call_number]',
      '[last_Call-ID:]',
      'CSeq: [last_cseq_number] INVITE',
      'Content-Length: 0',
    ]),
    '  <recv request="ACK"/>',
  ].join('\n'));
}

export interface SippRun {
  done: Promise<{ code: number | null; output: string }>;
  stop(): void;
}

/**
 * Runs sipp in the foreground (-nostdin; -bg exits at once). `keys` become [keyword]s of the
 * scenario. Resolves with sipp's exit code (0 = every call succeeded) and its error output.
 * -aa: an in-dialog OPTIONS (Kamailio's keep-alive on a call over 30 s) is answered 200, as a phone would.
 */
export function runSipp(o: { dir: string; name: string; xml: string; args: string[]; keys?: Record<string, string>; timeoutS?: number }): SippRun {
  const file = join(o.dir, `${o.name}.xml`);
  writeFileSync(file, o.xml);
  const keys = Object.entries(o.keys ?? {}).flatMap(([k, v]) => ['-key', k, v]);
  const proc = spawn('sipp', ['-sf', file, '-nostdin', '-aa', '-timeout', `${o.timeoutS ?? 20}s`, '-timeout_error', ...(process.env.SIPP_TRACE ? ['-trace_err', ...(process.env.SIPP_TRACE === 'all' ? ['-trace_msg'] : [])] : []), ...keys, ...o.args], { cwd: o.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.on('data', () => undefined);
  proc.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => proc.once('exit', (code) => resolve({ code, output })));
  return { done, stop: () => proc.exitCode === null && proc.kill('SIGKILL') };
}

/**
 * A carrier's caller who listens and presses keys: INVITE to [service] with an SDP whose RTP port
 * is [rtp_port] (a test socket that measures what the caller hears, not sipp), then after the 200
 * for each key: pause, SIP INFO (application/dtmf-relay); then talk `talkMs` and hang up.
 */
export function listeningCallerScenario(o: { keys: { afterMs: number; digit: string }[]; talkMs: number; remoteHangsUp?: boolean }): string {
  const from = 'sip:[caller]@carrier.example';
  const to = '[remote_ip]:[remote_port]';
  const sdp = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio [rtp_port] RTP/AVP 0 101', 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv'].join('\n');
  const inDialog = (method: string, cseq: number, body: string[] = []) => inDialogRequest(from, to, method, cseq, body.length ? { type: 'application/dtmf-relay', lines: body } : undefined);
  const first = invite(from, to, 1, ['X-Tongdai-At: [at]'], sdp);
  let cseq = 2;
  const keys = o.keys.flatMap((k) => [`  <pause milliseconds="${k.afterMs}"/>`, inDialog('INFO', cseq++, [`Signal=${k.digit}`, 'Duration=160']), '  <recv response="200"/>']);
  return scenario('listening-caller', [
    first,
    provisional,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialog('ACK', 1),
    ...keys,
    ...(o.remoteHangsUp
      ? farEndHangsUp()
      : [`  <pause milliseconds="${o.talkMs}"/>`, inDialog('BYE', cseq), '  <recv response="200" crlf="true"/>']),
  ].join('\n'));
}

/** A phone that is always busy: every INVITE gets 486 (an agent who refuses queue calls). */
export function busyScenario(): string {
  return scenario('phone-busy', [
    '  <recv request="INVITE" crlf="true"/>',
    msg([...replyHead('486 Busy Here'), 'Content-Length: 0']),
    '  <recv request="ACK"/>',
  ].join('\n'));
}

/**
 * A carrier's caller who talks (issue 16's recordings): INVITE to [service] with sipp's own media
 * port, and once answered, `audio` (a raw 8 kHz µ-law file) streamed as PCMU RTP from that port
 * (sipp's rtp_stream) for `talkMs`, then BYE. Run with `-mp <free port>`.
 */
export function talkingCallerScenario(audio: string, talkMs: number): string {
  const from = 'sip:[caller]@carrier.example';
  const to = '[remote_ip]:[remote_port]';
  const inDialog = (method: string, cseq: number) => inDialogRequest(from, to, method, cseq);
  return scenario('talking-caller', [
    invite(from, to, 1, ['X-Tongdai-At: [at]']),
    provisional,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialog('ACK', 1),
    `  <nop><action><exec rtp_stream="${audio},-1,0"/></action></nop>`,
    `  <pause milliseconds="${talkMs}"/>`,
    `  <nop><action><exec rtp_stream="pause"/></action></nop>`,
    inDialog('BYE', 2),
    '  <recv response="200" crlf="true"/>',
  ].join('\n'));
}

/**
 * A phone that answers after `answerMs` and talks: `audio` (raw µ-law) as PCMU RTP until the BYE.
 * `infos`: SIP INFO it sends in the dialog after the ACK, each `afterMs` after the previous one
 * (an agent pausing the recording). Run with `-mp <free port>`.
 */
export function talkingPhoneScenario(audio: string, answerMs = 300, infos: { afterMs: number; type: string; body: string }[] = []): string {
  const capture = '<action><ereg regexp=".*" search_in="hdr" header="From:" assign_to="caller_from"/><ereg regexp="[^;]*" search_in="hdr" header="To:" assign_to="me"/></action>';
  let cseq = 1;
  const sendInfos = infos.flatMap((i) => [
    `  <pause milliseconds="${i.afterMs}"/>`,
    msg([
      'INFO [next_url] SIP/2.0',
      'Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]',
      '[routes]',
      'From: [$me];tag=[pid]SIPpTag01[call_number]',
      'To: [$caller_from]',
      'Call-ID: [call_id]',
      `CSeq: ${cseq++} INFO`,
      'Contact: <sip:[local_ip]:[local_port];transport=[transport]>',
      'Max-Forwards: 70',
      `Content-Type: ${i.type}`,
      'Content-Length: [len]',
      '',
      i.body,
    ]),
    '  <recv response="200"/>',
  ]);
  return scenario('phone-talks', [
    `  <recv request="INVITE" crlf="true" rrs="true">${infos.length ? capture : ''}</recv>`,
    msg([...replyHead('180 Ringing'), 'Content-Length: 0']),
    `  <pause milliseconds="${answerMs}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    `  <nop><action><exec rtp_stream="${audio},-1,0"/></action></nop>`,
    ...sendInfos,
    '  <recv request="BYE"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
  ].join('\n'));
}

/** An SDP offer/answer whose RTP goes to [rtp_port] (an Ear), with telephone-event. */
const EAR_SDP = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio [rtp_port] RTP/AVP 0 101', 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv'].join('\n');

/**
 * A phone that answers after `answerMs` with its RTP on [rtp_port] (an Ear hears and speaks for it), then waits for the BYE.
 * `requireHeader`: the INVITE must carry that header matching `regexp`, else sipp fails the call (a dialer's agent leg).
 */
export function earPhoneScenario(answerMs = 200, o: { requireHeader?: { name: string; regexp: string } } = {}): string {
  const check = o.requireHeader
    ? `<action><ereg regexp="${o.requireHeader.regexp}" search_in="hdr" header="${o.requireHeader.name}:" check_it="true" assign_to="required"/></action>`
    : '';
  return scenario('phone-with-ear', [
    `  <recv request="INVITE" crlf="true">${check}</recv>`,
    // sipp refuses a scenario whose variable is set and never read: the header goes back in the 180.
    msg([...replyHead('180 Ringing'), ...(check ? ['X-Required: [$required]'] : []), 'Content-Length: 0']),
    `  <pause milliseconds="${answerMs}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', EAR_SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    '  <recv request="BYE"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
  ].join('\n'));
}

/**
 * Extension [caller]@[domain] dialling [service] with its RTP on [rtp_port] (an Ear), digest on
 * the 407 as extensionCallScenario; `expect` 200: after the answer each key is a SIP INFO
 * (application/dtmf-relay) `afterMs` after the previous one, then `talkMs` and BYE (or, with
 * `remoteHangsUp`, the far end's BYE). Another
 * `expect`: the refusal is ACKed (a supervisor's feature code refused).
 */
export function earExtensionCallScenario(o: { auth: { user: string; password: string }; expect: number; keys?: { afterMs: number; digit: string }[]; talkMs?: number; remoteHangsUp?: boolean }): string {
  const from = 'sip:[caller]@[domain]';
  const to = '[domain]';
  const head = [
    invite(from, to, 1, [], EAR_SDP),
    '  <recv response="100" optional="true"/>',
    '  <recv response="407" auth="true"/>',
    ackRefusal(to, 1),
    invite(from, to, 2, [`[authentication username=${o.auth.user} password=${o.auth.password}]`], EAR_SDP),
    provisional,
  ];
  if (o.expect !== 200) return scenario(`ear-extension-${o.expect}`, [...head, `  <recv response="${o.expect}"/>`, ackRefusal(to, 2)].join('\n'));
  let cseq = 3;
  const inDialog = (method: string, n: number, body?: string[]) => inDialogRequest(from, to, method, n, body ? { type: 'application/dtmf-relay', lines: body } : undefined);
  const keys = (o.keys ?? []).flatMap((k) => [`  <pause milliseconds="${k.afterMs}"/>`, inDialog('INFO', cseq++, [`Signal=${k.digit}`, 'Duration=160']), '  <recv response="200"/>']);
  return scenario('ear-extension-answered', [
    ...head,
    '  <recv response="200" rtd="true" rrs="true"/>',
    inDialog('ACK', 2),
    ...keys,
    ...(o.remoteHangsUp
      ? farEndHangsUp()
      : [`  <pause milliseconds="${o.talkMs ?? 1000}"/>`, inDialog('BYE', cseq), '  <recv response="200" crlf="true"/>']),
  ].join('\n'));
}

/**
 * A phone (or a carrier) with early media: 183 with an SDP on sipp's own media port, `audio` (raw
 * µ-law) streamed from it for `earlyMs` (a ringback or an announcement), then 200, and the BYE.
 * Run with `-mp <free port>`.
 */
export function earlyMediaPhoneScenario(audio: string, earlyMs: number): string {
  return scenario('phone-early-media', [
    '  <recv request="INVITE" crlf="true"/>',
    msg([...replyHead('183 Session Progress'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP]),
    `  <nop><action><exec rtp_stream="${audio},-1,0"/></action></nop>`,
    `  <pause milliseconds="${earlyMs}"/>`,
    msg([...replyHead('200 OK'), 'Content-Type: application/sdp', 'Content-Length: [len]', '', SDP], ' retrans="500"'),
    '  <recv request="ACK" crlf="true"/>',
    // An ACK late by more than 500 ms (a loaded machine) has the 200 sent again, and the caller ACKs each 200
    // (RFC 3261 13.2.2.4): a second ACK is the call going on, not an error (ci1 and ci4 of 2026-11-29: the
    // phone aborted on it, "unexpected message ... received 'ACK'", while the call itself went through).
    '  <recv request="ACK" optional="true"/>',
    '  <recv request="BYE"/>',
    msg([...replyHead('200 OK', false), 'Content-Length: 0']),
  ].join('\n'));
}
