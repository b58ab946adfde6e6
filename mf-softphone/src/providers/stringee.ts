import type { PhoneEvent } from '../machine/phone-machine';
import { MEDIA, SIGNALING, type StringeeCallLike, type StringeeSdk } from './stringee-sdk';
import { log, type AdapterHooks, type PhoneAdapter, type SipAccount } from './types';

/** Provider 3: the same softphone interface over Stringee's Web SDK. Loaded by dynamic import only. */
export function createStringeeAdapter(account: SipAccount, hooks: AdapterHooks, sdk: StringeeSdk): PhoneAdapter {
  const client = new sdk.StringeeClient();
  let current: StringeeCallLike | null = null;
  let started = false;

  const follow = (call: StringeeCallLike, direction: 'incoming' | 'outgoing') => {
    let answered = false;
    const send = (e: PhoneEvent) => {
      if (current !== call) return;
      const effects = hooks.sink(e);
      if (effects.some((x) => x.type === 'clearSession') || e.type === 'ended' || e.type === 'failed') current = null;
    };
    call.on('signalingstate', ({ code }) => {
      if (code === SIGNALING.calling && direction === 'outgoing') send({ type: 'outgoing.progress' });
      else if (code === SIGNALING.ringing && direction === 'outgoing') send({ type: 'outgoing.ringing' });
      else if (code === SIGNALING.answered) { answered = true; send({ type: `${direction}.accepted` }); }
      else if (code === SIGNALING.busy) send({ type: 'failed', cause: 'busy' });
      // Ended before the answer is a failed call (the caller gave up, or nobody answered).
      else if (code === SIGNALING.ended) send({ type: answered ? 'ended' : 'failed' });
    });
    call.on('mediastate', ({ code }) => {
      hooks.onMediaState?.(code === MEDIA.connected ? 'connected' : 'disconnected');
      if (code === MEDIA.connected) send({ type: `${direction}.confirmed` });
    });
    call.on('addremotestream', (stream) => {
      const audio = hooks.audio();
      if (!audio) return log.warn('no <audio id="softphone-audio"> in the layout: no speaker');
      audio.srcObject = stream;
      audio.play().catch((err: unknown) => log.warn('speaker unavailable', err));
    });
  };

  client.on('authen', (res) => hooks.sink({ type: res.r === 0 ? 'registered' : 'registrationFailed' }));
  client.on('disconnect', () => { if (started) hooks.sink({ type: 'unregistered' }); });
  client.on('requestnewtoken', () => {
    if (!hooks.renewToken) return log.error('Stringee asked for a new token and none can be minted');
    hooks.renewToken().then((t) => client.connect(t), (err: unknown) => log.error('token renewal failed', err));
  });
  client.on('incomingcall', (call) => {
    const effects = hooks.sink({ type: 'incoming.progress', remoteNumber: call.fromNumber ?? '' });
    if (effects.some((e) => e.type === 'rejectBusy')) return call.reject(() => undefined);
    current = call;
    follow(call, 'incoming');
  });

  return {
    start() {
      started = true;
      if (!account.access_token) { hooks.sink({ type: 'registrationFailed' }); return log.error('no Stringee access token'); }
      client.connect(account.access_token);
    },
    stop() {
      started = false;
      client.disconnect?.();
      hooks.sink({ type: 'unregistered' });
    },
    call(number) {
      if (!started) return log.error('dialling with no user agent', number);
      if (current) return log.warn('already in a call');
      if (hooks.sink({ type: 'outgoing.connecting', remoteNumber: number }).length === 0) return;
      const call = new sdk.StringeeCall(client, account.username_telecom, number, false);
      current = call;
      follow(call, 'outgoing');
      call.makeCall((res) => {
        if (res.r !== 0 && current === call) { log.warn('Stringee makeCall refused', res.message); current = null; hooks.sink({ type: 'failed' }); }
      });
    },
    answer() {
      current?.answer((res) => { if (res.r !== 0) log.warn('Stringee answer refused', res.message); });
    },
    reject() {
      const call = current;
      call?.reject(() => undefined);
      if (call) { current = null; hooks.sink({ type: 'declined' }); }
    },
    hangup() {
      const call = current;
      call?.hangup(() => undefined);
      // The SDK does not always report its own hang-up as signalingstate 6.
      if (call) { hooks.sink({ type: 'ended' }); current = null; }
    },
    setMuted(muted) {
      current?.mute(muted);
    },
    sendDtmf(tone) {
      current?.sendDtmf(tone, () => undefined);
    },
  };
}
