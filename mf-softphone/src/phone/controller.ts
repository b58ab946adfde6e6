import type { Observable } from 'rxjs';
// By deep path, not the shared rxjs loaded whole (shared/platform/src/rx.ts says why).
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import { CALL_FAILURE_MESSAGES, CALL_FAILURES, isActiveCallState, type CallFailure, type DirectoryEntry, type Provider } from '@tongdai/contracts';
import { notify, publishCallState } from '@tongdai/platform';
import { initialContext, transition, type Effect, type PhoneContext, type PhoneEvent } from '../machine/phone-machine';
import { log, type AdapterHooks, type PhoneAdapter, type SipAccount } from '../providers/types';
import { Ringtone } from './ringtone';

export interface PhoneView {
  context: PhoneContext;
  provider?: Provider;
  /** The user's own extension number. */
  extension?: string;
  /** Whether the user has an extension: 'none' keeps CALL_NOT_CREATED with its own label. */
  account: 'loading' | 'none' | 'ready' | 'error';
  /** Stopped because the user's activity status is 3. */
  paused: boolean;
  muted: boolean;
  mediaState?: string;
  /** When the call was accepted (ms), for the mm:ss timer. */
  connectedAt?: number;
  customerPopup: boolean;
  /** What the provider's adapter can do besides calls (hold, blind transfer: JsSIP only). */
  canHold: boolean;
  canTransfer: boolean;
  /** The other side refused our last transfer; cleared by the next transfer or call. */
  transferFailed?: boolean;
  /** The call is recorded and the agent may pause it (payment details): 'on' or 'paused'; absent otherwise. */
  recording?: 'on' | 'paused';
}

export interface ControllerDeps {
  createAdapter: (account: SipAccount, hooks: AdapterHooks) => Promise<PhoneAdapter>;
  customerPopupAllowed: () => boolean;
  logCall: (phone: string, direction: 'incoming' | 'outgoing') => void;
  audio: () => HTMLAudioElement | null;
  /** The microphone constraint of the next call (phone/devices). */
  audioInput?: () => boolean | MediaTrackConstraints;
  ringtone?: Pick<Ringtone, 'play' | 'stop' | 'reset'>;
  publish?: typeof publishCallState;
  now?: () => number;
  /** Provider 3: a fresh SDK token from our back end. */
  renewToken?: () => Promise<string>;
  /** The tenant's extensions (transfer targets), read the provider's way. */
  fetchDirectory?: (account: SipAccount) => Promise<DirectoryEntry[]>;
  /** Where the sentence saying why a call failed goes (the host's toasts). */
  notify?: typeof notify;
}

const isFailure = (cause: string | undefined): cause is CallFailure => (CALL_FAILURES as readonly string[]).includes(cause ?? '');

/** Drives one provider adapter through the pure machine and applies the effects. */
export class PhoneController {
  private readonly view$ = new BehaviorSubject<PhoneView>({ context: initialContext, account: 'loading', paused: false, muted: false, customerPopup: false, canHold: false, canTransfer: false });
  private adapter: PhoneAdapter | null = null;
  private account: SipAccount | null = null;
  private readonly ringtone: Pick<Ringtone, 'play' | 'stop' | 'reset'>;
  private readonly publish: typeof publishCallState;
  private generation = 0;

  constructor(private readonly deps: ControllerDeps) {
    this.ringtone = deps.ringtone ?? new Ringtone();
    this.publish = deps.publish ?? publishCallState;
  }

  get view(): Observable<PhoneView> { return this.view$.asObservable(); }
  get snapshot(): PhoneView { return this.view$.getValue(); }

  private patch(p: Partial<PhoneView>) { this.view$.next({ ...this.snapshot, ...p }); }

  /** The sink every adapter reports to. */
  readonly send = (event: PhoneEvent): Effect[] => {
    const before = this.snapshot;
    const { context, effects } = transition(before.context, event, { provider: this.account?.provider ?? 1, customerPopupAllowed: this.deps.customerPopupAllowed() });
    const connected = context.state === 'CALL_ACCEPTED' || context.state === 'CALL_CONFIRMED';
    // A transfer turns the call into a new one (another number): its timer and mute start afresh.
    const sameCall = isActiveCallState(context.state) && isActiveCallState(before.context.state) && context.remoteNumber === before.context.remoteNumber;
    this.patch({
      context,
      connectedAt: connected ? ((sameCall ? before.connectedAt : undefined) ?? (this.deps.now ?? Date.now)()) : sameCall ? before.connectedAt : undefined,
      muted: sameCall ? before.muted : false,
      transferFailed: sameCall ? before.transferFailed : undefined,
      recording: sameCall ? before.recording : undefined,
    });
    for (const e of effects) this.apply(e);
    if (context.state !== before.context.state) {
      this.publish(context.state, { direction: context.direction, remoteNumber: context.remoteNumber });
      // The badge's short label says what; the notice says why, for the number dialled.
      if (context.state === 'CALL_FAILED' && context.direction === 'outgoing' && isFailure(context.endCause)) {
        (this.deps.notify ?? notify)('error', CALL_FAILURE_MESSAGES[context.endCause](context.remoteNumber ?? ''));
      }
    }
    return effects;
  };

  private apply(e: Effect) {
    if (e.type === 'ringtone') this.ringtone[e.action]();
    else if (e.type === 'customerPopup') this.patch({ customerPopup: e.action === 'show' });
    else if (e.type === 'logCall') this.deps.logCall(e.phone, e.direction);
  }

  /** Registers the user's extension; null account = no extension, the phone stays not created. */
  async start(account: SipAccount | null): Promise<void> {
    this.stop();
    const gen = ++this.generation;
    this.account = account;
    if (!account) return this.patch({ account: 'none', provider: undefined });
    this.patch({ account: 'ready', provider: account.provider, extension: account.username_telecom, paused: false });
    try {
      const adapter = await this.deps.createAdapter(account, {
        sink: this.send,
        audio: this.deps.audio,
        audioInput: this.deps.audioInput,
        onMediaState: (mediaState) => this.patch({ mediaState }),
        renewToken: this.deps.renewToken,
        onTransferFailed: () => this.patch({ transferFailed: true }),
        onRecorded: () => this.patch({ recording: 'on' }),
      });
      if (gen !== this.generation) return; // stopped meanwhile
      this.adapter = adapter;
      this.patch({ canHold: !!adapter.setHeld, canTransfer: !!adapter.transfer });
      adapter.start();
    } catch (err) {
      log.error('softphone could not start', err);
      this.send({ type: 'registrationFailed' });
    }
  }

  /** Unregisters (logout, activity status 3). */
  stop(paused = false): void {
    this.generation++;
    const a = this.adapter;
    this.adapter = null;
    a?.stop();
    this.ringtone.reset();
    if (paused) this.patch({ paused: true });
    // The adapter's own 'unregistered' may never come once its UA is gone: say it here.
    if (a || paused) this.send({ type: 'unregistered' });
  }

  /** GET /sip-account failed for another reason than 404: the phone says so. */
  failAccount(): void {
    this.patch({ account: 'error' });
    this.send({ type: 'registrationFailed' });
  }

  call(number: string): void {
    const n = number.replace(/[\s.-]/g, '');
    if (!n) return;
    if (!this.adapter) return log.error('dialling with no user agent', n);
    this.adapter.call(n);
  }
  answer(): void { this.ringtone.stop(); this.adapter?.answer(); }
  reject(): void { this.adapter?.reject(); }
  hangup(): void { this.adapter?.hangup(); }
  dtmf(tone: string): void { this.adapter?.sendDtmf(tone); }
  /** Hold or resume; the adapter's hold/unhold events update the view (not a SPEC state). */
  toggleHold(): void { this.adapter?.setHeld?.(!this.snapshot.context.hold?.local); }
  /** Pause or resume the call's recording (only a call the PBX marked as recorded). */
  toggleRecording(): void {
    const now = this.snapshot.recording;
    if (!now || !this.adapter?.setRecordingPaused) return;
    const paused = now === 'on';
    this.adapter.setRecordingPaused(paused);
    this.patch({ recording: paused ? 'paused' : 'on' });
  }
  /** Blind transfer of the current call (SIP REFER). */
  transfer(target: string): void {
    const t = target.replace(/[\s.-]/g, '');
    if (!t || !this.adapter?.transfer) return;
    this.patch({ transferFailed: false });
    this.adapter.transfer(t);
  }
  /** Transfer targets: the tenant's extensions. */
  async directory(): Promise<DirectoryEntry[]> {
    return this.account && this.deps.fetchDirectory ? this.deps.fetchDirectory(this.account) : [];
  }
  /** The agent closes the customer card. */
  dismissCustomerPopup(): void { this.patch({ customerPopup: false }); }
  toggleMute(): void {
    const muted = !this.snapshot.muted;
    this.adapter?.setMuted(muted);
    this.patch({ muted });
  }
}
