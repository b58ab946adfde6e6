import type { AdapterHooks, PhoneAdapter, SipAccount } from '../providers/types';
import { PhoneController, type ControllerDeps } from './controller';

const account: SipAccount = { provider: 1, username_telecom: '102', domain_telecom: 'demo.tongdai.local', password_telecom: 'pw', ws_url: 'ws://x' };

function setup(over: Partial<ControllerDeps> = {}) {
  let hooks!: AdapterHooks;
  const adapter: jest.Mocked<PhoneAdapter> = { start: jest.fn(), stop: jest.fn(), call: jest.fn(), answer: jest.fn(), reject: jest.fn(), hangup: jest.fn(), setMuted: jest.fn(), sendDtmf: jest.fn(), setHeld: jest.fn(), transfer: jest.fn() };
  const publish = jest.fn();
  const deps = {
    createAdapter: jest.fn(async (_a: SipAccount, h: AdapterHooks) => { hooks = h; return adapter; }),
    customerPopupAllowed: () => true,
    logCall: jest.fn(),
    audio: () => null,
    ringtone: { play: jest.fn(), stop: jest.fn(), reset: jest.fn() },
    publish,
    now: () => 1000,
    ...over,
  };
  const phone = new PhoneController(deps);
  return { phone, deps, publish, adapter, hooks: () => hooks };
}

describe('PhoneController', () => {
  it('no extension (404): stays CALL_NOT_CREATED, publishes nothing, never creates an adapter', async () => {
    const { phone, deps } = setup();
    await phone.start(null);
    expect(phone.snapshot).toMatchObject({ account: 'none', context: { state: 'CALL_NOT_CREATED' } });
    expect(deps.createAdapter).not.toHaveBeenCalled();
    expect(deps.publish).not.toHaveBeenCalled();
  });

  it('publishes every state on the bus and applies the effects of an incoming call', async () => {
    const { phone, deps, publish, adapter, hooks } = setup();
    await phone.start(account);
    expect(adapter.start).toHaveBeenCalled();
    hooks().sink({ type: 'registered' });
    hooks().sink({ type: 'incoming.progress', remoteNumber: '101' });
    expect(deps.ringtone.play).toHaveBeenCalled();
    expect(deps.logCall).toHaveBeenCalledWith('101', 'incoming');
    expect(phone.snapshot.customerPopup).toBe(true);
    phone.answer();
    expect(adapter.answer).toHaveBeenCalled();
    hooks().sink({ type: 'incoming.accepted' });
    expect(phone.snapshot.connectedAt).toBe(1000);
    phone.toggleMute();
    expect([adapter.setMuted.mock.calls[0], phone.snapshot.muted]).toEqual([[true], true]);
    hooks().sink({ type: 'ended' });
    expect(deps.ringtone.reset).toHaveBeenCalled();
    expect(phone.snapshot).toMatchObject({ muted: false, connectedAt: undefined });
    expect(publish.mock.calls).toEqual([
      ['CALL_INCOMING', { direction: 'incoming', remoteNumber: '101' }],
      ['CALL_ACCEPTED', { direction: 'incoming', remoteNumber: '101' }],
      ['CALL_ENDED', { direction: 'incoming', remoteNumber: '101' }],
    ]);
  });

  it('an outgoing call that fails says why in a notice naming the number; one that simply ends does not', async () => {
    const notify = jest.fn();
    const { phone, hooks } = setup({ notify });
    await phone.start(account);
    hooks().sink({ type: 'registered' });
    hooks().sink({ type: 'outgoing.connecting', remoteNumber: '0912345678' });
    hooks().sink({ type: 'failed', cause: 'trunk_not_configured' });
    expect(phone.snapshot.context).toMatchObject({ state: 'CALL_FAILED', endCause: 'trunk_not_configured' });
    expect(notify.mock.calls).toEqual([['error', 'Không gọi được số 0912345678: chưa cấu hình đường trung kế (SIP trunk) để gọi ra ngoài. Vui lòng liên hệ quản trị viên']]);
    hooks().sink({ type: 'outgoing.connecting', remoteNumber: '102' });
    hooks().sink({ type: 'outgoing.accepted' });
    hooks().sink({ type: 'ended' });
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('activity status 3: stops the adapter and goes offline', async () => {
    const { phone, adapter, hooks } = setup();
    await phone.start(account);
    hooks().sink({ type: 'registered' });
    phone.stop(true);
    expect(adapter.stop).toHaveBeenCalled();
    expect(phone.snapshot).toMatchObject({ paused: true, context: { state: 'CALL_OFFLINE', registered: false } });
  });

  it('dialling with no user agent is logged only', () => {
    const { phone, deps } = setup();
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    phone.call('0912 345 678');
    expect(err).toHaveBeenCalledWith('[softphone]', 'dialling with no user agent', '0912345678');
    expect(deps.publish).not.toHaveBeenCalled();
    err.mockRestore();
  });

  it('an adapter that cannot load (e.g. the provider 3 SDK chunk) → failed register', async () => {
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { phone } = setup({ createAdapter: () => Promise.reject(new Error('chunk')) });
    await phone.start({ ...account, provider: 3 });
    expect(phone.snapshot.context.state).toBe('CALL_FAILED_REGISTER_TO_SERVER');
    err.mockRestore();
  });

  it('hold, transfer and the directory go through the adapter; a transferred call starts its timer afresh', async () => {
    let t = 1000;
    const directory = [{ extension: '103', display_name: 'Lễ tân' }];
    const { phone, adapter, hooks, publish } = setup({ now: () => t, fetchDirectory: jest.fn(async () => directory) });
    await phone.start(account);
    expect([phone.snapshot.canHold, phone.snapshot.canTransfer]).toEqual([true, true]);
    hooks().sink({ type: 'incoming.progress', remoteNumber: '101' });
    hooks().sink({ type: 'incoming.accepted' });
    phone.toggleHold();
    expect(adapter.setHeld).toHaveBeenLastCalledWith(true);
    hooks().sink({ type: 'hold', originator: 'local' });
    phone.toggleHold();
    expect(adapter.setHeld).toHaveBeenLastCalledWith(false);
    phone.transfer(' 103 ');
    expect(adapter.transfer).toHaveBeenCalledWith('103');
    hooks().onTransferFailed?.();
    expect(phone.snapshot.transferFailed).toBe(true);
    await expect(phone.directory()).resolves.toEqual(directory);
    // Hold published nothing on the bus: it is not a SPEC state.
    expect(publish.mock.calls.map((c) => c[0])).toEqual(['CALL_INCOMING', 'CALL_ACCEPTED']);
    t = 5000;
    hooks().sink({ type: 'referred', remoteNumber: '103' });
    expect(phone.snapshot).toMatchObject({ connectedAt: undefined, transferFailed: undefined });
    hooks().sink({ type: 'outgoing.accepted' });
    expect(phone.snapshot.connectedAt).toBe(5000);
  });

  it('a recorded call shows its recording; the agent pauses and resumes it through the adapter; the next call starts unmarked', async () => {
    const { phone, adapter, hooks } = setup();
    adapter.setRecordingPaused = jest.fn();
    await phone.start(account);
    phone.toggleRecording();
    expect(adapter.setRecordingPaused).not.toHaveBeenCalled();
    hooks().sink({ type: 'incoming.progress', remoteNumber: '0901234567' });
    hooks().onRecorded?.();
    hooks().sink({ type: 'incoming.accepted' });
    expect(phone.snapshot.recording).toBe('on');
    phone.toggleRecording();
    expect(adapter.setRecordingPaused).toHaveBeenLastCalledWith(true);
    expect(phone.snapshot.recording).toBe('paused');
    phone.toggleRecording();
    expect(adapter.setRecordingPaused).toHaveBeenLastCalledWith(false);
    expect(phone.snapshot.recording).toBe('on');
    hooks().sink({ type: 'ended' });
    hooks().sink({ type: 'incoming.progress', remoteNumber: '0901234568' });
    expect(phone.snapshot.recording).toBeUndefined();
  });

  it('the customer card can be closed; the next call shows it again', async () => {
    const { phone, hooks } = setup();
    await phone.start(account);
    hooks().sink({ type: 'incoming.progress', remoteNumber: '0901234567' });
    phone.dismissCustomerPopup();
    expect(phone.snapshot.customerPopup).toBe(false);
    hooks().sink({ type: 'failed' });
    hooks().sink({ type: 'incoming.progress', remoteNumber: '0901234567' });
    expect(phone.snapshot.customerPopup).toBe(true);
  });

  it('a provider without hold or transfer (Stringee) shows neither', async () => {
    const bare: PhoneAdapter = { start: jest.fn(), stop: jest.fn(), call: jest.fn(), answer: jest.fn(), reject: jest.fn(), hangup: jest.fn(), setMuted: jest.fn(), sendDtmf: jest.fn() };
    const { phone } = setup({ createAdapter: async () => bare });
    await phone.start({ ...account, provider: 3 });
    expect([phone.snapshot.canHold, phone.snapshot.canTransfer]).toEqual([false, false]);
  });
});
