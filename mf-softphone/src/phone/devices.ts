import type { Observable } from 'rxjs';
// By deep path, not the shared rxjs loaded whole (shared/platform/src/rx.ts says why).
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import { storage } from '@tongdai/platform';
import { log } from '../providers/types';

/**
 * The microphone and speaker the agent chose (device ids of enumerateDevices; none = the
 * system's default), kept in this browser's local storage. The microphone goes into the
 * getUserMedia constraints of every call, the speaker onto the layout's <audio> (setSinkId).
 */
export interface DeviceChoice {
  input?: string;
  output?: string;
}

/** Cleared with the session like everything but dark mode (docs/adr/0004). */
export const DEVICES_KEY = 'tongdai.softphone.devices';

const choice$ = new BehaviorSubject<DeviceChoice>(storage.getJson<DeviceChoice>(DEVICES_KEY) ?? {});

export const deviceChoice = {
  get value$(): Observable<DeviceChoice> { return choice$.asObservable(); },
  get(): DeviceChoice { return choice$.getValue(); },
  /** '' = back to the system default. */
  set(kind: keyof DeviceChoice, deviceId: string): void {
    const next = { ...choice$.getValue(), [kind]: deviceId || undefined };
    storage.set(DEVICES_KEY, JSON.stringify(next));
    choice$.next(next);
  },
};

/** Microphones the browser listed last (null: not listed yet). */
let presentInputs: ReadonlySet<string> | null = null;

/**
 * The audio constraint of a call. `exact` while the chosen microphone is plugged in (Chromium
 * passes over an `ideal` device id for the default microphone); `ideal` otherwise, so that a
 * headset unplugged since it was chosen never makes a call fail: the browser takes the default.
 */
export const audioConstraint = (c: DeviceChoice = choice$.getValue()): boolean | MediaTrackConstraints =>
  !c.input ? true : presentInputs?.has(c.input) ? { deviceId: { exact: c.input } } : { deviceId: { ideal: c.input } };

type SinkAudio = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };

/** Whether this browser can send a page's audio to a chosen speaker (Chromium yes, older Firefox/Safari no). */
export const canChooseSpeaker = (): boolean => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** Routes the remote audio to the chosen speaker ('' = default). SPEC §8: a missing speaker is only logged. */
export function applySpeaker(audio: HTMLAudioElement | null, output: string | undefined): void {
  const el = audio as SinkAudio | null;
  if (!el?.setSinkId) return;
  el.setSinkId(output ?? '').catch((err: unknown) => log.warn('speaker unavailable', output, err));
}

export interface AudioDevices {
  inputs: MediaDeviceInfo[];
  outputs: MediaDeviceInfo[];
}

/** The microphones and speakers the browser offers (names only once the microphone was allowed). */
export async function listAudioDevices(): Promise<AudioDevices> {
  const all = (await globalThis.navigator?.mediaDevices?.enumerateDevices?.()) ?? [];
  const inputs = all.filter((d) => d.kind === 'audioinput');
  presentInputs = new Set(inputs.map((d) => d.deviceId));
  return { inputs, outputs: all.filter((d) => d.kind === 'audiooutput') };
}

/** Keeps the list of plugged-in microphones current while the phone lives; returns the stop. */
export function watchAudioDevices(): () => void {
  const media = globalThis.navigator?.mediaDevices;
  const again = () => void listAudioDevices().catch((err: unknown) => log.warn('devices not listed', err));
  again();
  media?.addEventListener?.('devicechange', again);
  return () => media?.removeEventListener?.('devicechange', again);
}
