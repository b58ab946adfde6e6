import type { SipAccount as AccountOfApi } from '@tongdai/contracts';
import type { Effect, PhoneEvent } from '../machine/phone-machine';

/** GET /sip-account (tenant API) with the provider-specific keys of SPEC §3; one type with the API. */
export type SipAccount = Omit<AccountOfApi, 'display_name'> & { display_name?: string };

/**
 * Where an adapter reports its SDK's events. The answer is the machine's effects, of which the
 * adapter applies its own (rejectBusy on the new session, clearSession).
 */
export type PhoneSink = (event: PhoneEvent) => Effect[];

export interface AdapterHooks {
  sink: PhoneSink;
  /** The remote audio element of the common layout (SPEC §2). */
  audio: () => HTMLAudioElement | null;
  /** The microphone constraint of the next call (the agent's chosen device; true = default). */
  audioInput?: () => boolean | MediaTrackConstraints;
  /** RTCPeerConnection state of the current call, for the UI and the tests. */
  onMediaState?: (state: string) => void;
  /** Provider 3 asks for a fresh token (Stringee `requestnewtoken`). */
  renewToken?: () => Promise<string>;
  /** The other side refused our blind transfer: the call goes on. */
  onTransferFailed?: () => void;
  /** The current call is recorded and this phone may pause the recording (the PBX marked the call so). */
  onRecorded?: () => void;
}

/** The same softphone interface over every provider. */
export interface PhoneAdapter {
  start(): void;
  stop(): void;
  call(number: string): void;
  answer(): void;
  /** Rejects the ringing call. */
  reject(): void;
  hangup(): void;
  setMuted(muted: boolean): void;
  sendDtmf(tone: string): void;
  /** Hold (SIP re-INVITE sendonly) or resume; only where the provider can (JsSIP). */
  setHeld?(held: boolean): void;
  /** Blind transfer (SIP REFER) of the current call to a number; only where the provider can (JsSIP). */
  transfer?(target: string): void;
  /** Pause or resume the current call's recording (SIP INFO to the media worker); JsSIP only. */
  setRecordingPaused?(paused: boolean): void;
}

/** SPEC §8: missing devices and dialling without a user agent are logged only. */
export const log = {
  warn: (...args: unknown[]) => console.warn('[softphone]', ...args),
  error: (...args: unknown[]) => console.error('[softphone]', ...args),
};
