/**
 * The part of Stringee's Web SDK (npm `stringee`) the softphone uses, as documented in its
 * README: StringeeClient.connect(token) with events authen / disconnect / incomingcall /
 * requestnewtoken; StringeeCall(client, from, to) with makeCall / answer / reject / hangup /
 * sendDtmf / mute and events signalingstate / mediastate / addremotestream. Tests pass a double.
 */
export interface StringeeResponse { r: number; message?: string }

export interface StringeeClientLike {
  connect(accessToken: string): void;
  disconnect?(): void;
  on(event: 'authen', cb: (res: StringeeResponse & { userId?: string }) => void): void;
  on(event: 'disconnect' | 'requestnewtoken' | 'connect', cb: () => void): void;
  on(event: 'incomingcall', cb: (call: StringeeCallLike) => void): void;
}

export interface StringeeCallLike {
  fromNumber?: string;
  toNumber?: string;
  makeCall(cb: (res: StringeeResponse) => void): void;
  answer(cb: (res: StringeeResponse) => void): void;
  reject(cb: (res: StringeeResponse) => void): void;
  hangup(cb: (res: StringeeResponse) => void): void;
  sendDtmf(tone: string, cb: (res: StringeeResponse) => void): void;
  mute(muted: boolean): void;
  on(event: 'signalingstate' | 'mediastate', cb: (state: { code: number; reason?: string }) => void): void;
  on(event: 'addremotestream', cb: (stream: MediaStream) => void): void;
}

export interface StringeeSdk {
  StringeeClient: new () => StringeeClientLike;
  StringeeCall: new (client: StringeeClientLike, from: string, to: string, video?: boolean) => StringeeCallLike;
}

/** Stringee signalingstate codes (SDK README): 2 ringing, 3 answered, 5 busy, 6 ended. */
export const SIGNALING = { calling: 1, ringing: 2, answered: 3, busy: 5, ended: 6 } as const;
/** mediastate codes: 1 connected, 2 disconnected. */
export const MEDIA = { connected: 1, disconnected: 2 } as const;

/** The real SDK, fetched only when provider 3 is selected (its own chunk, ~200 KB). */
export async function loadStringeeSdk(): Promise<StringeeSdk> {
  const mod = (await import(/* webpackChunkName: "stringee-sdk" */ 'stringee')) as unknown as StringeeSdk & { default?: StringeeSdk };
  return mod.StringeeClient ? mod : (mod.default as StringeeSdk);
}
