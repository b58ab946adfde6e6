import type { Provider } from '@tongdai/contracts';
import type { Effect, PhoneEvent } from '../machine/phone-machine';

/** GET /sip-account (tenant API), plus the provider-specific keys of SPEC §3. */
export interface SipAccount {
  provider: Provider;
  username_telecom: string;
  domain_telecom: string;
  password_telecom: string;
  ws_url: string;
  display_name?: string;
  /** Provider 2 (SPEC §3). */
  extentions_number?: string;
  tenant_domain?: string;
  extension_password?: string;
  shop_key?: string;
  /** Provider 3: the Stringee access token minted by our back end. */
  access_token?: string;
}

/**
 * Where an adapter reports its SDK's events. The answer is the machine's effects, of which the
 * adapter applies its own (rejectBusy on the new session, clearSession).
 */
export type PhoneSink = (event: PhoneEvent) => Effect[];

export interface AdapterHooks {
  sink: PhoneSink;
  /** The remote audio element of the common layout (SPEC §2). */
  audio: () => HTMLAudioElement | null;
  /** RTCPeerConnection state of the current call, for the UI and the tests. */
  onMediaState?: (state: string) => void;
  /** Provider 3 asks for a fresh token (Stringee `requestnewtoken`). */
  renewToken?: () => Promise<string>;
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
}

/** SPEC §8: missing devices and dialling without a user agent are logged only. */
export const log = {
  warn: (...args: unknown[]) => console.warn('[softphone]', ...args),
  error: (...args: unknown[]) => console.error('[softphone]', ...args),
};
