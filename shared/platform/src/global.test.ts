import { firstValueFrom } from 'rxjs';
import { getOrCreateGlobalSingleton } from './global';

describe('global singletons', () => {
  it('a second copy of the platform finds the instances of the first', async () => {
    const first = await import('./bus');
    const firstSession = (await import('./session')).session;
    let second: typeof first | undefined;
    let secondSession: typeof firstSession | undefined;
    jest.isolateModules(() => {
      // A duplicated bundle: fresh module instances, same page.
      second = require('./bus');
      secondSession = require('./session').session;
    });
    expect(second).not.toBe(first);
    expect(second!.callBus.id).toBe(first.callBus.id);
    first.publishCallState('CALL_INCOMING', { direction: 'incoming', remoteNumber: '0912345678' });
    const seen = await firstValueFrom(second!.callBus.calls$);
    expect(seen).toMatchObject({ kind: 'tongdai.call-event', state: 'CALL_INCOMING', remoteNumber: '0912345678' });
    firstSession.setToken('shared-token');
    expect(secondSession!.get().token).toBe('shared-token');
  });

  it('creates once per id', () => {
    const a = getOrCreateGlobalSingleton('test.x', () => ({ n: 1 }));
    const b = getOrCreateGlobalSingleton('test.x', () => ({ n: 2 }));
    expect(b).toBe(a);
  });
});
