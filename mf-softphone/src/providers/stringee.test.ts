import type { CallState } from '@tongdai/contracts';
import { initialContext, transition, type PhoneContext, type PhoneEvent } from '../machine/phone-machine';
import { createStringeeAdapter } from './stringee';
import { FakeStringeeCall, fakeStringeeSdk } from '@tongdai/testkit/stringee-double';
import type { SipAccount } from './types';

const account: SipAccount = { provider: 3, username_telecom: '101', domain_telecom: 'demo.tongdai.local', password_telecom: '', ws_url: '', access_token: 'tok-1' };

function setup(renewToken?: () => Promise<string>) {
  let ctx: PhoneContext = initialContext;
  const states: CallState[] = [];
  const events: PhoneEvent[] = [];
  const fake = fakeStringeeSdk();
  const sink = (e: PhoneEvent) => {
    events.push(e);
    const t = transition(ctx, e, { provider: 3, customerPopupAllowed: false });
    if (t.context.state !== ctx.state) states.push(t.context.state);
    ctx = t.context;
    return t.effects;
  };
  const adapter = createStringeeAdapter(account, { sink, audio: () => null, renewToken }, fake.sdk);
  adapter.start();
  return { adapter, fake, states, events, ctx: () => ctx };
}

describe('Stringee adapter (provider 3) over a double of the SDK', () => {
  it('connects with the token; authen r=0 → registered, r≠0 → failed register', () => {
    const a = setup();
    expect(a.fake.client().tokens).toEqual(['tok-1']);
    a.fake.client().emit('authen', { r: 0 });
    expect(a.ctx().registered).toBe(true);
    const b = setup();
    b.fake.client().emit('authen', { r: 1, message: 'TOKEN_INVALID' });
    expect(b.ctx().state).toBe('CALL_FAILED_REGISTER_TO_SERVER');
  });

  it('requestnewtoken → connect again with a fresh token from our back end', async () => {
    const a = setup(() => Promise.resolve('tok-2'));
    a.fake.client().emit('requestnewtoken');
    await Promise.resolve(); await Promise.resolve();
    expect(a.fake.client().tokens).toEqual(['tok-1', 'tok-2']);
  });

  it('an outgoing call goes through the same states as JsSIP: connecting, out, process (ringing), accepted, failed (ended)', () => {
    const a = setup();
    a.fake.client().emit('authen', { r: 0 });
    a.adapter.call('0912345678');
    const call = a.fake.made[0];
    expect([call.fromNumber, call.toNumber, call.calls]).toEqual(['101', '0912345678', ['makeCall']]);
    call.emit('signalingstate', { code: 1 });
    call.emit('signalingstate', { code: 2 });
    call.emit('signalingstate', { code: 3 });
    call.emit('mediastate', { code: 1 });
    a.adapter.setMuted(true);
    a.adapter.sendDtmf('5');
    expect([call.muted, call.calls]).toEqual([true, ['makeCall', 'dtmf:5']]);
    call.emit('signalingstate', { code: 6 });
    expect(a.states).toEqual(['CALL_CONNECTING', 'CALL_OUT', 'CALL_PROCESS', 'CALL_ACCEPTED', 'CALL_FAILED']);
    expect(a.ctx().endCause).toBe('ended');
  });

  it('makeCall refused → failed', () => {
    const a = setup();
    a.fake.client().emit('authen', { r: 0 });
    const proto = FakeStringeeCall.prototype;
    const orig = proto.makeCall;
    proto.makeCall = function (cb) { cb({ r: 1, message: 'NOT_ENOUGH_MONEY' }); };
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try { a.adapter.call('0912345678'); } finally { proto.makeCall = orig; warn.mockRestore(); }
    expect(a.states).toEqual(['CALL_CONNECTING', 'CALL_FAILED']);
  });

  it('an incoming call: incoming, answer → accepted, media → accepted (confirmed only on provider 2), hang-up → ended', () => {
    const a = setup();
    a.fake.client().emit('authen', { r: 0 });
    const call = new FakeStringeeCall(null, '0987654321', '101');
    a.fake.client().emit('incomingcall', call);
    expect(a.ctx()).toMatchObject({ state: 'CALL_INCOMING', remoteNumber: '0987654321' });
    a.adapter.answer();
    call.emit('signalingstate', { code: 3 });
    call.emit('mediastate', { code: 1 });
    a.adapter.hangup();
    expect(call.calls).toEqual(['answer', 'hangup']);
    expect(a.states).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED', 'CALL_ENDED']);
  });

  it('a caller who gives up before the answer fails the call; the agent declining ends it as declined', () => {
    const a = setup();
    const c1 = new FakeStringeeCall(null, '0987654321', '101');
    a.fake.client().emit('incomingcall', c1);
    c1.emit('signalingstate', { code: 6 });
    expect(a.ctx().state).toBe('CALL_FAILED');
    const c2 = new FakeStringeeCall(null, '0987654322', '101');
    a.fake.client().emit('incomingcall', c2);
    a.adapter.reject();
    expect([c2.calls, a.ctx().state, a.ctx().endCause]).toEqual([['reject'], 'CALL_ENDED', 'declined']);
  });

  it('a second incoming call while one is active is rejected; the first goes on', () => {
    const a = setup();
    const first = new FakeStringeeCall(null, '0987654321', '101');
    a.fake.client().emit('incomingcall', first);
    a.adapter.answer();
    first.emit('signalingstate', { code: 3 });
    const second = new FakeStringeeCall(null, '0911111111', '101');
    a.fake.client().emit('incomingcall', second);
    expect(second.calls).toEqual(['reject']);
    expect(a.ctx()).toMatchObject({ state: 'CALL_ACCEPTED', remoteNumber: '0987654321' });
  });

  it('dialling before start is only logged; stop → offline', () => {
    const fake = fakeStringeeSdk();
    const sink = jest.fn(() => []);
    const warn = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const adapter = createStringeeAdapter(account, { sink, audio: () => null }, fake.sdk);
    adapter.call('0912345678');
    expect(sink).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('[softphone]', 'dialling with no user agent', '0912345678');
    warn.mockRestore();
    const a = setup();
    a.fake.client().emit('authen', { r: 0 });
    a.adapter.stop();
    expect(a.ctx().state).toBe('CALL_OFFLINE');
  });
});
