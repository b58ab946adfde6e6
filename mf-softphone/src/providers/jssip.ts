import { UA, WebSocketInterface } from 'jssip';
import type { ReferEvent, RTCSession } from 'jssip/lib/RTCSession';
import type { RTCSessionEvent } from 'jssip/lib/UA';
import { CALL_CAUSE_HEADER, CALL_VIA_HEADER, DIALER_CAMPAIGN_HEADER, callFailureOf, parseCallVia, RECORDING_HEADER, RECORDING_INFO_TYPE, SIP_REGISTER_EXPIRES_PROVIDER_1, type CallFailure } from '@tongdai/contracts';
import type { Effect, IncomingEnd, PhoneEvent } from '../machine/phone-machine';
import { log, type AdapterHooks, type PhoneAdapter, type SipAccount } from './types';

/** Loopback has no STUN to reach: with servers listed, the INVITE waits for ICE gathering (FIELD-NOTES). */
const PC_CONFIG: RTCConfiguration = { iceServers: [] };

/** JsSIP causes without a SIP answer to read (or a double that gives none) → the failure they mean. */
const BY_JSSIP_CAUSE: Readonly<Record<string, CallFailure>> = {
  Busy: 'busy', Rejected: 'rejected', 'Not Found': 'no_route', Unavailable: 'no_answer', 'Address Incomplete': 'no_route',
  'Connection Error': 'unreachable', 'Request Timeout': 'unreachable',
};

/** Why an outgoing session failed: the SIP answer (status + X-Tongdai-Cause) when there is one. */
export function failureOf(e: { cause?: string; message?: unknown }): CallFailure {
  const answer = e.message as { status_code?: number; getHeader?: (name: string) => string | undefined } | null | undefined;
  if (answer?.status_code) return callFailureOf({ status: answer.status_code, cause: answer.getHeader?.(CALL_CAUSE_HEADER) });
  return BY_JSSIP_CAUSE[e.cause ?? ''] ?? 'failed';
}

/**
 * Why a call ringing this phone stopped: the CANCEL that stopped it names a call answered on
 * another phone with "Reason: SIP;cause=200" (RFC 3326; Kamailio's tm adds it when one branch of a
 * ring group answers); any other CANCEL is the caller giving up, a missed call.
 */
export function incomingEndOf(e: { originator?: string; cause?: string; message?: unknown }): IncomingEnd | undefined {
  if (e.originator !== 'remote' || e.cause !== 'Canceled') return undefined;
  const reason = (e.message as { getHeader?: (name: string) => string | undefined } | null | undefined)?.getHeader?.('Reason') ?? '';
  return /(^|[;,\s])cause=200(\D|$)/i.test(reason) ? 'answeredElsewhere' : 'missed';
}

/** JsSIP's originator of a hold: our phone or the other side. */
const side = (originator: string): 'local' | 'remote' => (originator === 'local' ? 'local' : 'remote');

/** Provider 2 registers with its own keys of SPEC §3 (extension, tenant domain, extension password). */
export function sipIdentity(account: SipAccount): { user: string; domain: string; password: string } {
  if (account.provider === 2 && account.extentions_number && account.tenant_domain) {
    return { user: account.extentions_number, domain: account.tenant_domain, password: account.extension_password ?? account.password_telecom };
  }
  return { user: account.username_telecom, domain: account.domain_telecom, password: account.password_telecom };
}

/** JsSIP settings per provider (SPEC §9): expiry 60 s and no session timers on 1; timers on 2. */
export function uaConfig(account: SipAccount) {
  const p1 = account.provider === 1;
  const { user, domain, password } = sipIdentity(account);
  return {
    uri: `sip:${user}@${domain}`,
    password,
    display_name: account.display_name,
    register: true,
    ...(p1 ? { register_expires: SIP_REGISTER_EXPIRES_PROVIDER_1 } : {}),
    session_timers: !p1,
    // Back on its own within seconds after the SIP server restarts (JsSIP's default max is 30 s).
    connection_recovery_min_interval: 1,
    connection_recovery_max_interval: 4,
  };
}

/** Providers 1 and 2: a JsSIP user agent over WebSocket. */
/**
 * The name an incoming call gives in its From (a click-to-call's "Gọi cho 0912…", ADR 0066; a carrier's
 * caller name), trimmed and at most 60 characters; none when it is empty or only says the number again.
 */
export function callerName(displayName: string | undefined | null, number: string): string | undefined {
  const name = (displayName ?? '').trim().slice(0, 60);
  return name && name !== number ? name : undefined;
}

export function createJsSipAdapter(account: SipAccount, hooks: AdapterHooks): PhoneAdapter {
  let ua: UA | null = null;
  let current: RTCSession | null = null;
  /** The outgoing session the agent hung up (a CANCEL of their own), told apart from JsSIP's. */
  let hungUp: RTCSession | null = null;
  /** getUserMedia constraints of a call: the chosen microphone, asked anew for every call. */
  const media = () => ({ audio: hooks.audioInput?.() ?? true, video: false });
  /**
   * The hold or resume the agent asked for last, not sent yet. JsSIP refuses (returns false) a hold or
   * resume while another offer of the call is in flight — the previous hold's re-INVITE not answered, or
   * its answer not applied yet (isReadyToReOffer) — and a quick "Tiếp tục" after "Giữ máy" did nothing
   * (seen in an e2e run at load 15). The wish is sent once the offer before it is done.
   */
  let holdWish: { session: RTCSession; held: boolean } | null = null;
  let holdRetry: ReturnType<typeof setTimeout> | null = null;
  const applyHoldWish = (): void => {
    if (holdRetry) clearTimeout(holdRetry);
    holdRetry = null;
    const wish = holdWish;
    if (!wish || wish.session !== current || wish.session.isEnded()) return void (holdWish = null);
    if (wish.session.isOnHold().local === wish.held) return void (holdWish = null);
    // The offer's end calls back (done); the timer covers a refusal with nothing of ours in flight (the far end's re-INVITE).
    const sent = wish.held ? wish.session.hold({}, applyHoldWish) : wish.session.unhold({}, applyHoldWish);
    if (sent) holdWish = null;
    else holdRetry = setTimeout(applyHoldWish, 100);
  };

  const apply = (session: RTCSession, effects: Effect[]) => {
    for (const e of effects) {
      if (e.type === 'clearSession' && current === session) current = null;
    }
  };
  const send = (session: RTCSession, event: PhoneEvent) => apply(session, hooks.sink(event));

  /** Remote audio to the layout's element; the connection state to the UI. */
  const wirePeerConnection = (pc: RTCPeerConnection) => {
    pc.addEventListener('track', (ev) => {
      const audio = hooks.audio();
      if (!audio) return log.warn('no <audio id="softphone-audio"> in the layout: no speaker');
      audio.srcObject = ev.streams[0] ?? new MediaStream([ev.track]);
      audio.play().catch((err: unknown) => log.warn('speaker unavailable', err));
    });
    pc.addEventListener('connectionstatechange', () => hooks.onMediaState?.(pc.connectionState));
  };

  const follow = (session: RTCSession, direction: 'incoming' | 'outgoing') => {
    const mine = () => current === session;
    // Outgoing: the INVITE leaves (CALL_OUT), then the far end rings, 180/183 (CALL_PROCESS).
    session.on('sending', () => mine() && direction === 'outgoing' && send(session, { type: 'outgoing.progress' }));
    session.on('progress', () => mine() && direction === 'outgoing' && send(session, { type: 'outgoing.ringing' }));
    session.on('accepted', (e: { response?: { getHeader?: (name: string) => string | undefined } }) => {
      if (!mine()) return;
      send(session, { type: `${direction}.accepted` });
      // A call we placed is answered by the media worker when it is recorded and ours to pause.
      if (direction === 'outgoing' && e?.response?.getHeader?.(RECORDING_HEADER)) hooks.onRecorded?.();
    });
    session.on('hold', ({ originator }) => mine() && send(session, { type: 'hold', originator: side(originator) }));
    session.on('unhold', ({ originator }) => mine() && send(session, { type: 'unhold', originator: side(originator) }));
    session.on('refer', (e) => (mine() ? followRefer(session, e) : e.reject()));
    session.on('confirmed', () => mine() && send(session, { type: `${direction}.confirmed` }));
    session.on('ended', () => {
      if (!mine()) return;
      send(session, { type: 'ended' });
      if (current === session) current = null;
      hooks.onMediaState?.('closed');
    });
    session.on('failed', (e) => {
      if (!mine()) return;
      // Missing microphone: JsSIP fails the session; the spec wants it logged only.
      if (e.cause === 'User Denied Media Access') log.warn('microphone unavailable', e.cause);
      // The agent hung up before the answer (CANCEL): an ordinary end, not a failure. JsSIP also
      // cancels an unanswered INVITE by itself, reported the same way (local, Canceled), when the
      // server never answers (Timer B) or the socket fails: then the server is unreachable.
      if (direction === 'outgoing' && e.originator === 'local' && e.cause === 'Canceled') {
        send(session, hungUp === session ? { type: 'ended' } : { type: 'failed', cause: 'unreachable' });
      } else if (direction === 'incoming') send(session, { type: 'failed', cause: incomingEndOf(e) });
      else send(session, { type: 'failed', cause: failureOf(e) });
      if (current === session) current = null;
    });
  };

  /**
   * We are the transferee: the other side asked us (REFER) to call the target. The call goes on
   * as a new outgoing session; the old one is ended once the target answers, if the transferor
   * has not already hung it up.
   */
  const followRefer = (old: RTCSession, e: ReferEvent) => {
    // JsSIP parses Refer-To on the request; its type declarations leave it out.
    const target = (e.request as unknown as { refer_to: { uri: { user?: string } } }).refer_to.uri.user ?? '';
    e.accept((next: RTCSession) => {
      current = next;
      send(next, { type: 'referred', remoteNumber: target });
      follow(next, 'outgoing');
      if (next.connection) wirePeerConnection(next.connection);
      next.on('accepted', () => { if (!old.isEnded()) old.terminate(); });
    }, { mediaConstraints: media(), pcConfig: PC_CONFIG });
  };

  const onNewSession = (ev: RTCSessionEvent) => {
    if (ev.originator !== 'remote') return;
    const session = ev.session;
    const remoteNumber = session.remote_identity.uri.user ?? '';
    const remoteName = callerName(session.remote_identity.display_name, remoteNumber);
    const request = ev.request as { getHeader?: (name: string) => string | undefined } | undefined;
    // Which hotline and group the call came through: Kamailio adds it to the INVITE from the plan.
    const via = parseCallVia(request?.getHeader?.(CALL_VIA_HEADER));
    const effects = hooks.sink({ type: 'incoming.progress', remoteNumber, ...(remoteName && { remoteName }), ...(via && { via }) });
    if (effects.some((e) => e.type === 'rejectBusy')) {
      const busy = effects.find((e) => e.type === 'rejectBusy');
      session.terminate({ status_code: busy?.type === 'rejectBusy' ? busy.status : 486 });
      return;
    }
    current = session;
    // A call the PBX records, which this phone (the agent) may pause.
    if (request?.getHeader?.(RECORDING_HEADER)) hooks.onRecorded?.();
    // An incoming call's RTCPeerConnection is created by answer().
    session.on('peerconnection', ({ peerconnection }) => wirePeerConnection(peerconnection));
    follow(session, 'incoming');
    // A campaign dialer's call (issue 34): the agent said they are ready on the working screen and the
    // customer is already on the line, so it is answered at once, as call-centre dialers do.
    if (request?.getHeader?.(DIALER_CAMPAIGN_HEADER)) session.answer({ mediaConstraints: media(), pcConfig: PC_CONFIG });
  };

  return {
    start() {
      const socket = new WebSocketInterface(account.ws_url);
      ua = new UA({ ...uaConfig(account), sockets: [socket] });
      ua.on('registered', () => hooks.sink({ type: 'registered' }));
      ua.on('unregistered', () => hooks.sink({ type: 'unregistered' }));
      ua.on('registrationFailed', (e) => { log.warn('registration failed', e.cause); hooks.sink({ type: 'registrationFailed' }); });
      ua.on('newRTCSession', onNewSession);
      ua.start();
    },
    stop() {
      const u = ua;
      ua = null;
      if (!u) return;
      // Unregister first: JsSIP's stop() alone drops the socket and Kamailio keeps the contact.
      if (u.isRegistered()) u.unregister();
      u.stop();
    },
    call(number) {
      if (!ua) return log.error('dialling with no user agent', number);
      if (current) return log.warn('already in a call');
      const effects = hooks.sink({ type: 'outgoing.connecting', remoteNumber: number });
      if (effects.length === 0) return;
      const session = ua.call(`sip:${number}@${sipIdentity(account).domain}`, { mediaConstraints: media(), pcConfig: PC_CONFIG });
      current = session;
      follow(session, 'outgoing');
      // An outgoing call's RTCPeerConnection is created inside ua.call(), before any listener.
      if (session.connection) wirePeerConnection(session.connection);
    },
    answer() {
      current?.answer({ mediaConstraints: media(), pcConfig: PC_CONFIG });
    },
    reject() {
      const session = current;
      if (!session) return;
      // Declining is this phone's own doing: say so before JsSIP reports it as a failed session.
      current = null;
      hooks.sink({ type: 'declined' });
      session.terminate({ status_code: 486 });
    },
    hangup() {
      hungUp = current;
      current?.terminate();
    },
    setMuted(muted) {
      if (!current) return;
      if (muted) current.mute({ audio: true }); else current.unmute({ audio: true });
    },
    sendDtmf(tone) {
      current?.sendDTMF(tone);
    },
    setHeld(held) {
      if (!current) return;
      holdWish = { session: current, held };
      applyHoldWish();
    },
    setRecordingPaused(paused) {
      current?.sendInfo(RECORDING_INFO_TYPE, paused ? 'pause' : 'resume');
    },
    transfer(target) {
      const session = current;
      if (!session) return log.warn('no call to transfer');
      // Blind transfer: once the other side accepts the REFER (202) this phone is out of the call.
      session.refer(`sip:${target}@${sipIdentity(account).domain}`, {
        eventHandlers: {
          requestSucceeded: () => {
            if (current !== session) return;
            send(session, { type: 'transferred' });
            current = null;
            session.terminate();
            hooks.onMediaState?.('closed');
          },
          requestFailed: () => { log.warn('transfer refused', target); hooks.onTransferFailed?.(); },
        },
      });
    },
  };
}
