import { BUSY_REJECT_STATUS, INITIAL_CALL_STATE, isActiveCallState, type CallFailure, type CallState, type CallVia, type Provider } from '@tongdai/contracts';

/**
 * The call state machine of SPEC §4, pure: no JsSIP, no DOM, no timers. The provider adapters
 * translate their SDK's events into PhoneEvent; the controller applies the returned effects.
 */

export type Direction = 'incoming' | 'outgoing';

/**
 * How a call that rang this phone ended unanswered here: its caller gave up (a missed call), or
 * another phone of the group or queue answered it (CANCEL with Reason cause=200, RFC 3326).
 */
export type IncomingEnd = 'missed' | 'answeredElsewhere';

export interface PhoneContext {
  state: CallState;
  /** Registered with the SIP server (or the SDK authenticated): the phone is ready. */
  registered: boolean;
  direction?: Direction;
  remoteNumber?: string;
  /**
   * The name an incoming call gives itself (its From display name): a click-to-call's "Gọi cho 0912…"
   * (ADR 0066), a carrier's caller name. None when it gives only its number.
   */
  remoteName?: string;
  /** The hotline and ring group / queue a ringing call came through (the PBX says so; issue 30). */
  via?: CallVia;
  /**
   * How the last call ended. SPEC §4 sends an outgoing call that ended normally to CALL_FAILED;
   * the state follows the spec, the badge uses this to say "ended" rather than "failed".
   */
  endCause?: 'ended' | 'transferred' | 'declined' | CallFailure | IncomingEnd;
  /**
   * Who holds the call (SIP re-INVITE sendonly/inactive): this phone, the other side, or both.
   * Hold is not a SPEC §4 state: the call stays accepted/confirmed and the bus sees no change.
   */
  hold?: { local: boolean; remote: boolean };
}

export type PhoneEvent =
  | { type: 'incoming.progress'; remoteNumber: string; remoteName?: string; via?: CallVia }
  | { type: 'incoming.accepted' }
  | { type: 'incoming.confirmed' }
  | { type: 'outgoing.connecting'; remoteNumber: string }
  /** The INVITE is on its way to the SIP server (JsSIP `sending`, Stringee "calling"). */
  | { type: 'outgoing.progress' }
  /** The far end rings (180/183, Stringee "ringing"): CALL_PROCESS, "Đang gọi" (docs/adr/0008). */
  | { type: 'outgoing.ringing' }
  | { type: 'outgoing.accepted' }
  | { type: 'outgoing.confirmed' }
  | { type: 'hold'; originator: 'local' | 'remote' }
  | { type: 'unhold'; originator: 'local' | 'remote' }
  /** This phone handed its call over (blind transfer accepted by the other side). */
  | { type: 'transferred' }
  /** The agent declined the ringing call: a normal end, not a failure (docs/adr/0008). */
  | { type: 'declined' }
  /** The other side transferred us: the call goes on as a new outgoing call to the target. */
  | { type: 'referred'; remoteNumber: string }
  | { type: 'ended' }
  /** Why, when the adapter knows (SIP status + X-Tongdai-Cause, contracts callFailureOf): the badge says it. */
  | { type: 'failed'; cause?: CallFailure | IncomingEnd }
  | { type: 'registered' }
  | { type: 'unregistered' }
  | { type: 'registrationFailed' };

export type Effect =
  | { type: 'ringtone'; action: 'play' | 'stop' | 'reset' }
  /** The CRM customer popup (gated by feature popupcustomer + show_popup_customer, SPEC §4). */
  | { type: 'customerPopup'; action: 'show' | 'hide' }
  /** Forget the SDK session object (outgoing ended/failed, SPEC §4). */
  | { type: 'clearSession' }
  /** Reject the NEW incoming session as busy; the current call is untouched. */
  | { type: 'rejectBusy'; status: typeof BUSY_REJECT_STATUS }
  /** POST create-histories-call. */
  | { type: 'logCall'; phone: string; direction: Direction };

export interface MachineOptions {
  provider: Provider;
  /** popupcustomer purchased and not expired, and show_popup_customer is "1". */
  customerPopupAllowed: boolean;
}

export interface Transition {
  context: PhoneContext;
  effects: Effect[];
}

export const initialContext: PhoneContext = { state: INITIAL_CALL_STATE, registered: false };

const popup = (opts: MachineOptions, action: 'show' | 'hide'): Effect[] =>
  opts.customerPopupAllowed ? [{ type: 'customerPopup', action }] : [];

/** Computes the next context and the side effects of one event. */
export function transition(ctx: PhoneContext, event: PhoneEvent, opts: MachineOptions): Transition {
  const to = (patch: Partial<PhoneContext>, effects: Effect[] = []): Transition => ({ context: { ...ctx, ...patch }, effects });
  const active = isActiveCallState(ctx.state);
  switch (event.type) {
    case 'incoming.progress':
      // SPEC §4 "second call": busy on provider 1. Other providers: not shown; one call slot
      // cannot take a second call either, so they answer busy too (docs/adr/0008).
      if (active) return to({}, [{ type: 'rejectBusy', status: BUSY_REJECT_STATUS }]);
      return to(
        { state: 'CALL_INCOMING', direction: 'incoming', remoteNumber: event.remoteNumber, remoteName: event.remoteName, via: event.via, endCause: undefined },
        [{ type: 'ringtone', action: 'play' }, ...popup(opts, 'show'), { type: 'logCall', phone: event.remoteNumber, direction: 'incoming' }],
      );
    case 'incoming.accepted':
      return to({ state: 'CALL_ACCEPTED' }, [{ type: 'ringtone', action: 'stop' }, ...popup(opts, 'show')]);
    case 'incoming.confirmed':
      return to({ state: opts.provider === 2 ? 'CALL_CONFIRMED' : 'CALL_ACCEPTED' });
    case 'outgoing.connecting':
      if (active) return to({});
      return to(
        { state: 'CALL_CONNECTING', direction: 'outgoing', remoteNumber: event.remoteNumber, remoteName: undefined, via: undefined, endCause: undefined },
        [{ type: 'logCall', phone: event.remoteNumber, direction: 'outgoing' }],
      );
    case 'outgoing.progress':
      if (ctx.direction !== 'outgoing' || ctx.state !== 'CALL_CONNECTING') return to({});
      return to({ state: 'CALL_OUT' }, popup(opts, 'show'));
    case 'outgoing.ringing':
      // SPEC §4 names no transition into CALL_PROCESS: it is the far end ringing (docs/adr/0008).
      if (ctx.direction !== 'outgoing' || (ctx.state !== 'CALL_CONNECTING' && ctx.state !== 'CALL_OUT')) return to({});
      return to({ state: 'CALL_PROCESS' }, ctx.state === 'CALL_CONNECTING' ? popup(opts, 'show') : []);
    case 'outgoing.accepted':
      return to({ state: 'CALL_ACCEPTED' }, popup(opts, 'show'));
    case 'outgoing.confirmed':
      // SPEC §4 names no outgoing "confirmed" transition: the call stays accepted.
      return to({});
    case 'hold':
    case 'unhold': {
      if (!active) return to({});
      const hold = { local: false, remote: false, ...ctx.hold, [event.originator]: event.type === 'hold' };
      return to({ hold: hold.local || hold.remote ? hold : undefined });
    }
    case 'referred':
      if (!active) return to({});
      return to(
        { state: 'CALL_CONNECTING', direction: 'outgoing', remoteNumber: event.remoteNumber, remoteName: undefined, via: undefined, hold: undefined },
        [{ type: 'logCall', phone: event.remoteNumber, direction: 'outgoing' }],
      );
    case 'ended':
    case 'transferred': {
      const endCause = event.type === 'ended' ? 'ended' : 'transferred';
      if (ctx.direction === 'outgoing') return to({ state: 'CALL_FAILED', endCause, hold: undefined }, [{ type: 'clearSession' }]);
      if (ctx.direction === 'incoming') return to({ state: 'CALL_ENDED', endCause, hold: undefined }, [{ type: 'ringtone', action: 'reset' }]);
      return to({});
    }
    case 'declined':
      if (ctx.direction !== 'incoming' || ctx.state !== 'CALL_INCOMING') return to({});
      return to({ state: 'CALL_ENDED', endCause: 'declined', hold: undefined }, [{ type: 'ringtone', action: 'reset' }]);
    case 'failed':
      if (ctx.direction === 'outgoing') return to({ state: 'CALL_FAILED', endCause: event.cause ?? 'failed', hold: undefined }, [{ type: 'clearSession' }, ...popup(opts, 'hide')]);
      // A caller who gives up before the answer fails the session: the ringtone must not go on. The
      // badge says why: a missed call, or answered on another phone.
      // Another phone of the group took it: its caller is that agent's now, the popup goes (issue 30).
      if (ctx.direction === 'incoming') {
        return to({ state: 'CALL_FAILED', endCause: event.cause ?? 'failed', hold: undefined }, [{ type: 'ringtone', action: 'reset' }, ...(event.cause === 'answeredElsewhere' ? popup(opts, 'hide') : [])]);
      }
      return to({});
    case 'registered':
      // "Success keeps the phone ready": a phone that was offline or failed is ready again.
      return to({ registered: true, state: active ? ctx.state : INITIAL_CALL_STATE });
    case 'unregistered':
      // A call in progress keeps its media when the registration drops: it is not cut off.
      return to({ registered: false, state: active ? ctx.state : 'CALL_OFFLINE' });
    case 'registrationFailed':
      return to({ registered: false, state: active ? ctx.state : 'CALL_FAILED_REGISTER_TO_SERVER' });
  }
}
