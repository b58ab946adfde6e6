import { dialBus, publishPhoneReady, requestDial, type DialRequest } from './bus';
import { getOrCreateGlobalSingleton } from './global';

describe('click-to-call on the platform bus', () => {
  it('hands every request to whoever listens (the softphone), in order, and nothing to nobody', () => {
    requestDial({ kind: 'number', number: '102' }); // before anyone listens: dropped, not replayed
    const heard: DialRequest[] = [];
    const sub = dialBus.requests$.subscribe((r) => heard.push(r));
    requestDial({ kind: 'customer', customerId: 7, display: '091***4567' });
    requestDial({ kind: 'call', callId: 42, display: '0287***001' });
    sub.unsubscribe();
    requestDial({ kind: 'number', number: '103' });
    expect(heard).toEqual([{ kind: 'customer', customerId: 7, display: '091***4567' }, { kind: 'call', callId: 42, display: '0287***001' }]);
  });

  it('is not ready until the softphone says so, and announces each change once', () => {
    expect(dialBus.ready).toBe(false);
    const seen: boolean[] = [];
    const sub = dialBus.ready$.subscribe((r) => seen.push(r));
    publishPhoneReady(true);
    publishPhoneReady(true);
    publishPhoneReady(false);
    sub.unsubscribe();
    expect(seen).toEqual([false, true, false]);
  });

  it('lives in the global registry: a second copy of the package (another remote) shares it', () => {
    const shared = getOrCreateGlobalSingleton<{ ready: { getValue(): boolean } }>('dialBus', () => { throw new Error('not shared'); });
    publishPhoneReady(true);
    expect(shared.ready.getValue()).toBe(true);
    publishPhoneReady(false);
  });
});
