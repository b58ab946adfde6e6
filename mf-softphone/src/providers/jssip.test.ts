import { EventEmitter } from 'node:events';
import type { CallState } from '@tongdai/contracts';
import { initialContext, transition, type PhoneContext, type PhoneEvent } from '../machine/phone-machine';
import type { SipAccount } from './types';

/** JsSIP doubles: a UA and RTCSessions that emit what JsSIP emits, with the calls recorded. */
class FakeSession extends EventEmitter {
  calls: unknown[][] = [];
  connection = null;
  constructor(public remote_identity = { uri: { user: '102' } }) { super(); }
  answer(o: unknown) { this.calls.push(['answer', o]); }
  terminate(o?: unknown) { this.calls.push(['terminate', o]); }
  mute(o: unknown) { this.calls.push(['mute', o]); }
  unmute(o: unknown) { this.calls.push(['unmute', o]); }
  sendDTMF(t: string) { this.calls.push(['dtmf', t]); }
  sendInfo(type: string, body: string) { this.calls.push(['info', type, body]); }
  /** As JsSIP: a hold or resume is refused (false) while another offer of the call is in flight; `done` once its answer is applied. */
  reOffering: (() => void) | null = null;
  localHold = false;
  isOnHold() { return { local: this.localHold, remote: false }; }
  hold(_o?: unknown, done?: () => void) { return this.reOffer(true, done); }
  unhold(_o?: unknown, done?: () => void) { return this.reOffer(false, done); }
  private reOffer(held: boolean, done?: () => void) {
    if (this.reOffering || this.localHold === held) return false;
    this.calls.push([held ? 'hold' : 'unhold']);
    this.localHold = held;
    this.emit(held ? 'hold' : 'unhold', { originator: 'local' });
    this.reOffering = () => { this.reOffering = null; done?.(); };
    return true;
  }
  refer(target: string, options: { eventHandlers: Record<string, () => void> }) { this.calls.push(['refer', target]); this.referHandlers = options.eventHandlers; }
  referHandlers: Record<string, () => void> = {};
  ended = false;
  isEnded() { return this.ended; }
}
class FakeUA extends EventEmitter {
  static last: FakeUA;
  started = false;
  registered = false;
  outgoing: { target: string; options: unknown; session: FakeSession }[] = [];
  constructor(public config: Record<string, unknown>) { super(); FakeUA.last = this; }
  start() { this.started = true; }
  stop() { this.started = false; }
  isRegistered() { return this.registered; }
  unregister() { this.registered = false; }
  call(target: string, options: unknown) { const session = new FakeSession({ uri: { user: target } }); this.outgoing.push({ target, options, session }); return session; }
}
// Getters: jest hoists this above the classes, which exist by the time the adapter runs.
jest.mock('jssip', () => ({ get UA() { return FakeUA; }, WebSocketInterface: class { constructor(public url: string) {} } }));

import { callerName, createJsSipAdapter, uaConfig } from './jssip';

describe('callerName (the From display name of an incoming call)', () => {
  it('a name is kept, trimmed and cut at 60 characters; none when empty or only the number again', () => {
    expect(callerName(' Gọi cho 0912000801 ', '0912000801')).toBe('Gọi cho 0912000801');
    expect(callerName('0912000801', '0912000801')).toBeUndefined();
    expect(callerName('', '101')).toBeUndefined();
    expect(callerName(undefined, '101')).toBeUndefined();
    expect(callerName('x'.repeat(80), '101')).toHaveLength(60);
  });
});

const account = (provider: 1 | 2): SipAccount => ({ provider, username_telecom: '101', domain_telecom: 'demo.tongdai.local', password_telecom: 'pw', ws_url: 'ws://127.0.0.1:8088' });

function setup(provider: 1 | 2 = 1, onTransferFailed?: () => void, onRecorded?: () => void) {
  let ctx: PhoneContext = initialContext;
  const states: CallState[] = [];
  const sink = (e: PhoneEvent) => {
    const t = transition(ctx, e, { provider, customerPopupAllowed: false });
    if (t.context.state !== ctx.state) states.push(t.context.state);
    ctx = t.context;
    return t.effects;
  };
  const adapter = createJsSipAdapter(account(provider), { sink, audio: () => null, onTransferFailed, onRecorded });
  return { adapter, states, ctx: () => ctx, ua: () => FakeUA.last };
}
const incoming = (ua: FakeUA, session = new FakeSession()) => {
  ua.emit('newRTCSession', { originator: 'remote', session });
  session.emit('progress', { originator: 'local' });
  return session;
};

describe('JsSIP settings (SPEC §9)', () => {
  it('provider 1: expiry 60 s, no session timers; provider 2: session timers', () => {
    expect(uaConfig(account(1))).toMatchObject({ uri: 'sip:101@demo.tongdai.local', password: 'pw', register_expires: 60, session_timers: false });
    expect(uaConfig(account(2))).toMatchObject({ session_timers: true });
    expect(uaConfig(account(2)).register_expires).toBeUndefined();
    expect(uaConfig(account(1)).connection_recovery_max_interval).toBeLessThanOrEqual(5);
  });
  it('provider 2 registers with its own SPEC §3 keys: extentions_number@tenant_domain, extension_password', () => {
    const p2: SipAccount = { ...account(2), extentions_number: '102', tenant_domain: 'demo.tongdai.local', extension_password: 'pw2', shop_key: 'demo.k' };
    expect(uaConfig(p2)).toMatchObject({ uri: 'sip:102@demo.tongdai.local', password: 'pw2' });
  });
  it('dials with an empty ICE server list (loopback)', () => {
    const a = setup();
    a.adapter.start();
    a.adapter.call('102');
    expect(a.ua().outgoing[0]).toMatchObject({ target: 'sip:102@demo.tongdai.local', options: { pcConfig: { iceServers: [] }, mediaConstraints: { audio: true, video: false } } });
  });
});

describe('JsSIP adapter → SPEC §4 machine', () => {
  it('registration: registered → ready, unregistered → offline, failure → failed register', () => {
    const a = setup();
    a.adapter.start();
    expect(a.ua().started).toBe(true);
    a.ua().emit('registered', {});
    expect(a.ctx()).toMatchObject({ state: 'CALL_NOT_CREATED', registered: true });
    a.ua().emit('unregistered', {});
    expect(a.ctx().state).toBe('CALL_OFFLINE');
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    a.ua().emit('registrationFailed', { cause: 'Rejected' });
    expect(a.ctx().state).toBe('CALL_FAILED_REGISTER_TO_SERVER');
  });

  it.each([[1, 'CALL_ACCEPTED'], [2, 'CALL_CONFIRMED']] as const)('incoming call on provider %i: incoming → accepted → %s → ended', (provider, confirmed) => {
    const a = setup(provider);
    a.adapter.start();
    const s = incoming(a.ua());
    expect(a.ctx().remoteNumber).toBe('102');
    a.adapter.answer();
    expect(s.calls[0]).toEqual(['answer', { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [] } }]);
    s.emit('accepted', {});
    s.emit('confirmed', {});
    expect(a.ctx().state).toBe(confirmed);
    s.emit('ended', { originator: 'remote' });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED', ...(provider === 2 ? ['CALL_CONFIRMED'] : []), 'CALL_ENDED']);
  });

  it('incoming call declined by the agent → ended as declined (486 to the caller), not failed', () => {
    const a = setup();
    a.adapter.start();
    const s = incoming(a.ua());
    a.adapter.reject();
    expect(s.calls).toEqual([['terminate', { status_code: 486 }]]);
    s.emit('failed', { originator: 'local', cause: 'Rejected' });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ENDED']);
    expect(a.ctx().endCause).toBe('declined');
  });

  it('incoming call cancelled by the caller → failed, a missed call', () => {
    const a = setup();
    a.adapter.start();
    const s = incoming(a.ua());
    s.emit('failed', { originator: 'remote', cause: 'Canceled', message: { getHeader: () => undefined } });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_FAILED']);
    expect(a.ctx().endCause).toBe('missed');
  });

  it('incoming call cancelled because another phone answered (Reason: SIP;cause=200) → failed, answered elsewhere', () => {
    const a = setup();
    a.adapter.start();
    const s = incoming(a.ua());
    const reason = (name: string) => (name === 'Reason' ? 'SIP;cause=200;text="Call completed elsewhere"' : undefined);
    s.emit('failed', { originator: 'remote', cause: 'Canceled', message: { getHeader: reason } });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_FAILED']);
    expect(a.ctx().endCause).toBe('answeredElsewhere');
  });

  it('a second incoming call while one is active is rejected 486 on provider 1; the first is untouched', () => {
    const a = setup(1);
    a.adapter.start();
    const first = incoming(a.ua());
    first.emit('accepted', {});
    const second = new FakeSession({ uri: { user: '103' } });
    a.ua().emit('newRTCSession', { originator: 'remote', session: second });
    expect(second.calls).toEqual([['terminate', { status_code: 486 }]]);
    second.emit('failed', { cause: 'Busy' });
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', remoteNumber: '102' });
    a.adapter.hangup();
    expect(first.calls).toEqual([['terminate', undefined]]);
  });

  it('outgoing call: connecting → out (INVITE sent) → process (180) → accepted → failed on ended, session cleared', () => {
    const a = setup();
    a.adapter.start();
    a.adapter.call('102');
    const s = a.ua().outgoing[0].session;
    s.emit('sending', { request: {} });
    s.emit('progress', { originator: 'remote' });
    s.emit('accepted', {});
    s.emit('confirmed', {});
    a.adapter.setMuted(true);
    a.adapter.sendDtmf('1');
    expect(s.calls).toEqual([['mute', { audio: true }], ['dtmf', '1']]);
    s.emit('ended', { originator: 'local' });
    expect(a.states).toEqual(['CALL_CONNECTING', 'CALL_OUT', 'CALL_PROCESS', 'CALL_ACCEPTED', 'CALL_FAILED']);
    // The session is cleared: hang-up no longer reaches it.
    a.adapter.hangup();
    expect(s.calls).toHaveLength(2);
  });

  it('outgoing failure (busy callee) → failed', () => {
    const a = setup();
    a.adapter.start();
    a.adapter.call('102');
    a.ua().outgoing[0].session.emit('failed', { cause: 'Busy' });
    expect(a.states).toEqual(['CALL_CONNECTING', 'CALL_FAILED']);
    expect(a.ctx().endCause).toBe('busy');
  });

  it('an outgoing failure says why: the SIP answer\'s X-Tongdai-Cause, else its status, else the transport', () => {
    const answer = (status_code: number, cause?: string) => ({ status_code, getHeader: (h: string) => (h === 'X-Tongdai-Cause' ? cause : undefined) });
    const cases: [Record<string, unknown>, string][] = [
      [{ originator: 'remote', cause: 'SIP Failure Code', message: answer(503, 'trunk_not_configured') }, 'trunk_not_configured'],
      [{ originator: 'remote', cause: 'Rejected', message: answer(403, 'international') }, 'not_allowed'],
      [{ originator: 'remote', cause: 'Not Found', message: answer(404, 'no_route') }, 'no_route'],
      [{ originator: 'remote', cause: 'Unavailable', message: answer(480, 'offline') }, 'extension_offline'],
      [{ originator: 'remote', cause: 'Unavailable', message: answer(408) }, 'no_answer'],
      [{ originator: 'remote', cause: 'SIP Failure Code', message: answer(503) }, 'unreachable'],
      [{ originator: 'system', cause: 'Connection Error' }, 'unreachable'],
      [{ originator: 'system', cause: 'Request Timeout' }, 'unreachable'],
      // JsSIP cancelled the INVITE by itself (the server never answered, Timer B; or the socket
      // failed): reported as a local cancel, yet the agent did not hang up.
      [{ originator: 'local', cause: 'Canceled' }, 'unreachable'],
    ];
    for (const [event, endCause] of cases) {
      const a = setup();
      a.adapter.start();
      a.adapter.call('0912345678');
      a.ua().outgoing[0].session.emit('failed', event);
      expect([a.ctx().state, a.ctx().endCause]).toEqual(['CALL_FAILED', endCause]);
    }
    // The agent hung up before the answer: an ordinary end, not a failure.
    const a = setup();
    a.adapter.start();
    a.adapter.call('0912345678');
    a.adapter.hangup();
    a.ua().outgoing[0].session.emit('failed', { originator: 'local', cause: 'Canceled' });
    expect([a.ctx().state, a.ctx().endCause]).toEqual(['CALL_FAILED', 'ended']);
  });

  it('calls and answers with the microphone the agent chose (asked anew for each call)', () => {
    let mic: boolean | MediaTrackConstraints = { deviceId: { ideal: 'mic-2' } };
    const sink = (e: PhoneEvent) => (e.type === 'outgoing.connecting' ? [{ type: 'logCall' as const, phone: '102', direction: 'outgoing' as const }] : []);
    const adapter = createJsSipAdapter(account(1), { sink, audio: () => null, audioInput: () => mic });
    adapter.start();
    adapter.call('102');
    expect(FakeUA.last.outgoing[0].options).toMatchObject({ mediaConstraints: { audio: { deviceId: { ideal: 'mic-2' } }, video: false } });
    mic = true;
    const s = new FakeSession();
    FakeUA.last.emit('newRTCSession', { originator: 'remote', session: s });
    adapter.answer();
    expect(s.calls).toEqual([['answer', { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [] } }]]);
  });

  it('dialling with no user agent is only logged (SPEC §8)', () => {
    const a = setup();
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    a.adapter.call('102');
    expect(err).toHaveBeenCalledWith('[softphone]', 'dialling with no user agent', '102');
    expect(a.states).toEqual([]);
    err.mockRestore();
  });

  it('stop unregisters before stopping the UA', () => {
    const a = setup();
    a.adapter.start();
    a.ua().registered = true;
    a.adapter.stop();
    expect([a.ua().registered, a.ua().started]).toEqual([false, false]);
  });
});

/** The INVITE as Kamailio forks it to the browser, with these extra headers, read by JsSIP's own parser (not a double). */
const invite = (...headers: string[]) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseMessage } = require('jssip/lib/Parser') as { parseMessage(data: string, ua: unknown): { getHeader(name: string): string } };
  const lines = [
    'INVITE sip:102@abc.invalid;transport=ws SIP/2.0',
    'Via: SIP/2.0/WSS 127.0.0.1:8088;branch=z9hG4bK1',
    'From: <sip:0903000001@127.0.0.1>;tag=a1',
    'To: <sip:02873001234@demo.tongdai.local>',
    'Call-ID: via-1',
    'CSeq: 1 INVITE',
    'Contact: <sip:0903000001@127.0.0.1:5060>',
    ...headers,
    'Content-Length: 0',
  ];
  return parseMessage(`${lines.join('\r\n')}\r\n\r\n`, {});
};

describe('which hotline and group the call came through (issue 30)', () => {

  it("a ringing call keeps the hotline and group Kamailio named in X-Tongdai-Via; a colleague's direct call names none", () => {
    const a = setup();
    a.adapter.start();
    a.ua().emit('newRTCSession', { originator: 'remote', session: new FakeSession(), request: invite('X-Tongdai-Via: hotline=02873001234;group=Kinh%20doanh') });
    expect(a.ctx()).toMatchObject({ state: 'CALL_INCOMING', via: { hotline: '02873001234', group: 'Kinh doanh' } });
    a.adapter.reject();
    a.ua().emit('newRTCSession', { originator: 'remote', session: new FakeSession(), request: invite() });
    expect(a.ctx().state).toBe('CALL_INCOMING');
    expect(a.ctx().via).toBeUndefined();
  });
});

describe('pausing a recorded call (issue 16)', () => {
  const marked = (h: string) => (h === 'X-Tongdai-Recording' ? 'on' : undefined);

  it('an incoming call the PBX marks as recorded says so; pause and resume go to the worker as SIP INFO', () => {
    const onRecorded = jest.fn();
    const a = setup(1, undefined, onRecorded);
    a.adapter.start();
    const s = new FakeSession();
    a.ua().emit('newRTCSession', { originator: 'remote', session: s, request: { getHeader: marked } });
    expect(onRecorded).toHaveBeenCalledTimes(1);
    a.adapter.answer();
    s.emit('accepted', {});
    a.adapter.setRecordingPaused?.(true);
    a.adapter.setRecordingPaused?.(false);
    expect(s.calls.filter((c) => c[0] === 'info')).toEqual([['info', 'application/x-tongdai-recording', 'pause'], ['info', 'application/x-tongdai-recording', 'resume']]);
  });

  it('a call we place is marked by the 200 that answers it; an unmarked call is not', () => {
    const onRecorded = jest.fn();
    const a = setup(1, undefined, onRecorded);
    a.adapter.start();
    a.adapter.call('0901234567');
    a.ua().outgoing[0].session.emit('accepted', { response: { getHeader: () => undefined } });
    expect(onRecorded).not.toHaveBeenCalled();
    a.adapter.hangup();
    a.ua().outgoing[0].session.emit('ended', {});
    a.adapter.call('0901234568');
    a.ua().outgoing[1].session.emit('accepted', { response: { getHeader: marked } });
    expect(onRecorded).toHaveBeenCalledTimes(1);
  });
});

describe('hold and blind transfer (JsSIP only)', () => {
  const connectedCall = () => {
    const a = setup();
    a.adapter.start();
    const s = incoming(a.ua());
    a.adapter.answer();
    s.emit('accepted', {});
    return { ...a, s };
  };

  it('hold and resume go to the session; hold from either side is tracked without leaving the SPEC state', () => {
    const a = connectedCall();
    a.adapter.setHeld?.(true);
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', hold: { local: true, remote: false } });
    a.s.reOffering?.();
    a.s.emit('hold', { originator: 'remote' });
    a.adapter.setHeld?.(false);
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', hold: { local: false, remote: true } });
    a.s.emit('unhold', { originator: 'remote' });
    expect(a.ctx().hold).toBeUndefined();
    expect(a.s.calls.slice(1)).toEqual([['hold'], ['unhold']]);
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED']);
  });

  it("a resume asked while the hold's re-INVITE is in flight is sent once that is answered, not dropped (JsSIP refuses it then)", () => {
    jest.useFakeTimers();
    try {
      const a = connectedCall();
      a.adapter.setHeld?.(true);
      a.adapter.setHeld?.(false);
      expect(a.s.calls.slice(1)).toEqual([['hold']]);
      jest.advanceTimersByTime(1000);
      expect(a.s.calls.slice(1)).toEqual([['hold']]);
      a.s.reOffering?.();
      expect(a.s.calls.slice(1)).toEqual([['hold'], ['unhold']]);
      expect(a.ctx().hold).toBeUndefined();
      // Hold, resume and hold again while the first is in flight: only the last wish is sent, once.
      a.s.reOffering?.();
      a.adapter.setHeld?.(true);
      a.adapter.setHeld?.(false);
      a.adapter.setHeld?.(true);
      a.s.reOffering?.();
      jest.advanceTimersByTime(1000);
      expect(a.s.calls.slice(1)).toEqual([['hold'], ['unhold'], ['hold']]);
      expect(a.ctx()).toMatchObject({ hold: { local: true } });
      // A refusal with nothing of ours in flight (the far end's re-INVITE) is tried again.
      a.s.reOffering?.();
      a.s.reOffering = () => { a.s.reOffering = null; };
      a.adapter.setHeld?.(false);
      expect(a.s.calls.slice(1)).toEqual([['hold'], ['unhold'], ['hold']]);
      a.s.reOffering();
      jest.advanceTimersByTime(100);
      expect(a.s.calls.slice(1)).toEqual([['hold'], ['unhold'], ['hold'], ['unhold']]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('transferor: REFER to the target in our domain; accepted (202) → this phone hangs up, the call ends as transferred', () => {
    const a = connectedCall();
    a.adapter.transfer?.('103');
    expect(a.s.calls.at(-1)).toEqual(['refer', 'sip:103@demo.tongdai.local']);
    a.s.referHandlers.requestSucceeded();
    expect(a.s.calls.at(-1)).toEqual(['terminate', undefined]);
    expect(a.ctx()).toMatchObject({ state: 'CALL_ENDED', endCause: 'transferred' });
    a.s.emit('ended', { originator: 'local' });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED', 'CALL_ENDED']);
  });

  it('transferor: a refused REFER keeps the call and says so', () => {
    const failed = jest.fn();
    const a = setup(1, failed);
    a.adapter.start();
    const s = incoming(a.ua());
    s.emit('accepted', {});
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    a.adapter.transfer?.('103');
    s.referHandlers.requestFailed();
    expect(failed).toHaveBeenCalled();
    expect(a.ctx().state).toBe('CALL_ACCEPTED');
  });

  it('transferee: a REFER places the new call; the old call is dropped silently once the target answers', () => {
    const a = connectedCall();
    let next!: FakeSession;
    a.s.emit('refer', {
      request: { refer_to: { uri: { user: '103' } } },
      accept: (cb: (s: FakeSession) => void, options: unknown) => { next = new FakeSession({ uri: { user: '103' } }); next.calls.push(['connect', options]); cb(next); },
      reject: () => undefined,
    });
    expect(next.calls[0]).toEqual(['connect', { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [] } }]);
    expect(a.ctx()).toMatchObject({ state: 'CALL_CONNECTING', direction: 'outgoing', remoteNumber: '103' });
    // The transferor's BYE ends the old session: it is no longer ours, the new call goes on.
    a.s.emit('ended', { originator: 'remote' });
    expect(a.ctx().state).toBe('CALL_CONNECTING');
    next.emit('progress', {});
    next.emit('accepted', {});
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', remoteNumber: '103' });
    expect(a.s.calls.filter((c) => c[0] === 'terminate')).toEqual([['terminate', undefined]]);
    a.adapter.hangup();
    expect(next.calls.at(-1)).toEqual(['terminate', undefined]);
  });

  it('a REFER on a session that is no longer ours is refused', () => {
    const a = connectedCall();
    a.s.emit('ended', { originator: 'remote' });
    const reject = jest.fn();
    a.s.emit('refer', { request: { refer_to: { uri: { user: '103' } } }, accept: jest.fn(), reject });
    expect(reject).toHaveBeenCalled();
  });
});

describe("a campaign dialer's call (issue 34)", () => {
  const answers = (s: FakeSession) => s.calls.filter((c) => c[0] === 'answer');

  it('an INVITE marked X-Tongdai-Campaign is answered at once and goes on as an ordinary answered call', () => {
    const a = setup();
    a.adapter.start();
    const s = new FakeSession({ uri: { user: '091***5678' } });
    a.ua().emit('newRTCSession', { originator: 'remote', session: s, request: invite('X-Tongdai-Campaign: 9;contact=31') });
    expect(answers(s)).toEqual([['answer', { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [] } }]]);
    s.emit('accepted', {});
    s.emit('confirmed', {});
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', direction: 'incoming', remoteNumber: '091***5678' });
    s.emit('ended', { originator: 'remote' });
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED', 'CALL_ENDED']);
  });

  it('any other incoming call rings until the agent answers it', () => {
    const a = setup();
    a.adapter.start();
    const s = new FakeSession();
    a.ua().emit('newRTCSession', { originator: 'remote', session: s, request: invite('X-Tongdai-Via: hotline=02873001234') });
    expect(answers(s)).toEqual([]);
    expect(a.ctx().state).toBe('CALL_INCOMING');
  });

  it('a dialer call that finds the agent already on a call is refused busy, not answered over it', () => {
    const a = setup();
    a.adapter.start();
    const first = incoming(a.ua());
    a.adapter.answer();
    first.emit('accepted', {});
    const s = new FakeSession();
    a.ua().emit('newRTCSession', { originator: 'remote', session: s, request: invite('X-Tongdai-Campaign: 9;contact=31') });
    expect(s.calls).toEqual([['terminate', { status_code: 486 }]]);
    expect(a.ctx().state).toBe('CALL_ACCEPTED');
  });
});
