/**
 * Test double of Stringee's Web SDK for the softphone's Jest tests (never bundled: the production
 * softphone loads the real `stringee` package). Shaped after the SDK README; the softphone's own
 * description of the SDK (mf-softphone providers/stringee-sdk.ts) checks it where it is passed in.
 */

interface StringeeResponse { r: number; message?: string }

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of several SDK shapes
type Handler = (arg: any) => void;
class Emitter {
  private handlers = new Map<string, Handler[]>();
  on(event: string, cb: Handler) { this.handlers.set(event, [...(this.handlers.get(event) ?? []), cb]); }
  emit(event: string, arg?: unknown) { for (const h of this.handlers.get(event) ?? []) h(arg); }
}

/** Test double of StringeeCall following the SDK README's events and callbacks. */
export class FakeStringeeCall extends Emitter {
  calls: string[] = [];
  muted = false;
  makeCallResponse: StringeeResponse = { r: 0 };
  constructor(public client: unknown, public fromNumber: string, public toNumber: string) { super(); }
  makeCall(cb: (r: StringeeResponse) => void) { this.calls.push('makeCall'); cb(this.makeCallResponse); }
  answer(cb: (r: StringeeResponse) => void) { this.calls.push('answer'); cb({ r: 0 }); }
  reject(cb: (r: StringeeResponse) => void) { this.calls.push('reject'); cb({ r: 0 }); }
  hangup(cb: (r: StringeeResponse) => void) { this.calls.push('hangup'); cb({ r: 0 }); }
  sendDtmf(tone: string, cb: (r: StringeeResponse) => void) { this.calls.push(`dtmf:${tone}`); cb({ r: 0 }); }
  mute(m: boolean) { this.muted = m; }
}

/** Test double of StringeeClient; `emit` plays the server's part. */
export class FakeStringeeClient extends Emitter {
  tokens: string[] = [];
  connect(token: string) { this.tokens.push(token); }
  disconnect() { this.emit('disconnect'); }
}

export function fakeStringeeSdk() {
  const made: FakeStringeeCall[] = [];
  let client: FakeStringeeClient | null = null;
  const sdk = {
    StringeeClient: class extends FakeStringeeClient { constructor() { super(); client = this; } },
    StringeeCall: class extends FakeStringeeCall { constructor(c: unknown, from: string, to: string) { super(c, from, to); made.push(this); } },
  };
  return { sdk, made, client: () => client as FakeStringeeClient };
}
