import { DEVICES_KEY } from './devices';

/** A fresh copy of the module, as after a page reload: it reads the choice back from local storage. */
const reload = () => {
  let mod!: typeof import('./devices');
  jest.isolateModules(() => { mod = jest.requireActual('./devices'); });
  return mod;
};

describe('microphone and speaker choice', () => {
  beforeEach(() => localStorage.clear());

  it('is kept in local storage and read back after a reload; "" returns to the default device', () => {
    const first = reload();
    expect(first.audioConstraint()).toBe(true);
    first.deviceChoice.set('input', 'mic-2');
    first.deviceChoice.set('output', 'speaker-3');
    expect(JSON.parse(localStorage.getItem(DEVICES_KEY)!)).toEqual({ input: 'mic-2', output: 'speaker-3' });
    const again = reload();
    expect(again.deviceChoice.get()).toEqual({ input: 'mic-2', output: 'speaker-3' });
    expect(again.audioConstraint()).toEqual({ deviceId: { ideal: 'mic-2' } });
    again.deviceChoice.set('input', '');
    expect(reload().audioConstraint()).toBe(true);
  });

  it('routes the layout\'s <audio> to the chosen speaker; a speaker that is gone is only logged (SPEC §8)', async () => {
    const { applySpeaker, deviceChoice } = reload();
    const sinks: string[] = [];
    const audio = { setSinkId: async (id: string) => { sinks.push(id); if (id === 'gone') throw new Error('NotFoundError'); } } as unknown as HTMLAudioElement;
    deviceChoice.set('output', 'speaker-3');
    applySpeaker(audio, deviceChoice.get().output);
    applySpeaker(audio, undefined);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    applySpeaker(audio, 'gone');
    await Promise.resolve(); await Promise.resolve();
    expect(sinks).toEqual(['speaker-3', '', 'gone']);
    expect(warn).toHaveBeenCalledWith('[softphone]', 'speaker unavailable', 'gone', expect.any(Error));
    warn.mockRestore();
    // A browser without setSinkId: nothing to do, nothing thrown.
    expect(() => applySpeaker({} as HTMLAudioElement, 'speaker-3')).not.toThrow();
  });

  it('lists microphones and speakers apart', async () => {
    const { listAudioDevices } = reload();
    const device = (kind: MediaDeviceKind, deviceId: string) => ({ kind, deviceId, label: deviceId, groupId: '' }) as MediaDeviceInfo;
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { enumerateDevices: async () => [device('audioinput', 'm1'), device('videoinput', 'cam'), device('audiooutput', 's1'), device('audioinput', 'm2')] },
    });
    const { inputs, outputs } = await listAudioDevices();
    expect([inputs.map((d) => d.deviceId), outputs.map((d) => d.deviceId)]).toEqual([['m1', 'm2'], ['s1']]);
  });

  it('asks for exactly the chosen microphone while it is plugged in, and only ideally once it is gone', async () => {
    const { audioConstraint, deviceChoice, listAudioDevices } = reload();
    let plugged = ['m1', 'm2'];
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { enumerateDevices: async () => plugged.map((deviceId) => ({ kind: 'audioinput', deviceId, label: deviceId, groupId: '' })) },
    });
    deviceChoice.set('input', 'm2');
    await listAudioDevices();
    expect(audioConstraint()).toEqual({ deviceId: { exact: 'm2' } });
    plugged = ['m1'];
    await listAudioDevices();
    expect(audioConstraint()).toEqual({ deviceId: { ideal: 'm2' } });
  });
});
