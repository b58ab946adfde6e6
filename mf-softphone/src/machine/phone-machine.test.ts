import { CALL_STATES, isActiveCallState, type CallState } from '@tongdai/contracts';
import { initialContext, transition, type MachineOptions, type PhoneContext, type PhoneEvent } from './phone-machine';

const P1: MachineOptions = { provider: 1, customerPopupAllowed: true };
const P2: MachineOptions = { provider: 2, customerPopupAllowed: true };

/** Runs events in order and returns the final transition. */
function run(events: PhoneEvent[], opts = P1, from: PhoneContext = { ...initialContext, registered: true }) {
  let ctx = from;
  let effects = [] as ReturnType<typeof transition>['effects'];
  for (const e of events) ({ context: ctx, effects } = transition(ctx, e, opts));
  return { ctx, effects };
}
const ring = { type: 'incoming.progress', remoteNumber: '102' } as const;
const dial = { type: 'outgoing.connecting', remoteNumber: '0912345678' } as const;

describe('incoming call (SPEC §4)', () => {
  it('progress: ringtone plays, state incoming, caller popup shown, call logged', () => {
    const { ctx, effects } = run([ring]);
    expect(ctx).toMatchObject({ state: 'CALL_INCOMING', direction: 'incoming', remoteNumber: '102' });
    expect(effects).toEqual([
      { type: 'ringtone', action: 'play' },
      { type: 'customerPopup', action: 'show' },
      { type: 'logCall', phone: '102', direction: 'incoming' },
    ]);
  });
  it('keeps which hotline and group the call came through while it rings; the next call placed forgets it (issue 30)', () => {
    const via = { hotline: '02873001234', queue: 'CSKH' };
    expect(run([{ ...ring, via }]).ctx.via).toEqual(via);
    expect(run([{ ...ring, via }, { type: 'incoming.accepted' }]).ctx.via).toEqual(via);
    expect(run([{ ...ring, via }, { type: 'declined' }, dial]).ctx.via).toBeUndefined();
    expect(run([{ ...ring, via }, { type: 'declined' }, ring]).ctx.via).toBeUndefined();
  });
  it('keeps the name the call gives (a click-to-call\'s "Gọi cho …") while it rings; the next call forgets it', () => {
    const named = { ...ring, remoteNumber: '0912000801', remoteName: 'Gọi cho 0912000801' };
    expect(run([named]).ctx.remoteName).toBe('Gọi cho 0912000801');
    expect(run([named, { type: 'declined' }, ring]).ctx.remoteName).toBeUndefined();
    expect(run([named, { type: 'declined' }, dial]).ctx.remoteName).toBeUndefined();
  });
  it('the customer popup needs the feature and the setting', () => {
    const { effects } = run([ring], { provider: 1, customerPopupAllowed: false });
    expect(effects.some((e) => e.type === 'customerPopup')).toBe(false);
  });
  it('accepted: ringtone stops, state accepted', () => {
    const { ctx, effects } = run([ring, { type: 'incoming.accepted' }]);
    expect(ctx.state).toBe('CALL_ACCEPTED');
    expect(effects).toContainEqual({ type: 'ringtone', action: 'stop' });
  });
  it('confirmed: accepted on provider 1, confirmed on provider 2', () => {
    expect(run([ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }], P1).ctx.state).toBe('CALL_ACCEPTED');
    expect(run([ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }], P2).ctx.state).toBe('CALL_CONFIRMED');
    expect(run([ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }], { provider: 3, customerPopupAllowed: false }).ctx.state).toBe('CALL_ACCEPTED');
  });
  it('ended: state ended, ringtone reset', () => {
    const { ctx, effects } = run([ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }, { type: 'ended' }]);
    expect(ctx).toMatchObject({ state: 'CALL_ENDED', endCause: 'ended' });
    expect(effects).toEqual([{ type: 'ringtone', action: 'reset' }]);
  });
  it('declined by the agent: a normal end (ended, "declined"), ringtone reset; only while ringing', () => {
    const { ctx, effects } = run([ring, { type: 'declined' }]);
    expect(ctx).toMatchObject({ state: 'CALL_ENDED', endCause: 'declined' });
    expect(effects).toEqual([{ type: 'ringtone', action: 'reset' }]);
    expect(run([ring, { type: 'incoming.accepted' }, { type: 'declined' }]).ctx.state).toBe('CALL_ACCEPTED');
    expect(run([dial, { type: 'declined' }]).ctx.state).toBe('CALL_CONNECTING');
  });
  it('failed: state failed (and a caller who gave up silences the ringtone)', () => {
    const { ctx, effects } = run([ring, { type: 'failed' }]);
    expect(ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'failed' });
    expect(effects).toEqual([{ type: 'ringtone', action: 'reset' }]);
    expect(run([ring, { type: 'failed', cause: 'missed' }]).ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'missed' });
    expect(run([ring, { type: 'failed', cause: 'answeredElsewhere' }]).ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'answeredElsewhere' });
    // Answered on another phone: the caller's popup closes there (issue 30); a missed call keeps it to read.
    expect(run([ring, { type: 'failed', cause: 'answeredElsewhere' }]).effects).toContainEqual({ type: 'customerPopup', action: 'hide' });
    expect(run([ring, { type: 'failed', cause: 'missed' }]).effects).not.toContainEqual({ type: 'customerPopup', action: 'hide' });
  });
});

describe('outgoing call (SPEC §4)', () => {
  it('dialling: connecting, call logged', () => {
    const { ctx, effects } = run([dial]);
    expect(ctx).toMatchObject({ state: 'CALL_CONNECTING', direction: 'outgoing', remoteNumber: '0912345678' });
    expect(effects).toEqual([{ type: 'logCall', phone: '0912345678', direction: 'outgoing' }]);
  });
  it('progress: out; accepted: accepted; confirmed keeps accepted', () => {
    expect(run([dial, { type: 'outgoing.progress' }]).ctx.state).toBe('CALL_OUT');
    expect(run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.accepted' }]).ctx.state).toBe('CALL_ACCEPTED');
    expect(run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.accepted' }, { type: 'outgoing.confirmed' }], P2).ctx.state).toBe('CALL_ACCEPTED');
  });
  it('the far end rings (180/183): CALL_PROCESS, "Đang gọi", until the answer (docs/adr/0008)', () => {
    expect(run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.ringing' }]).ctx).toMatchObject({ state: 'CALL_PROCESS', direction: 'outgoing' });
    // A far end that rings before the INVITE's own progress is seen still rings; the popup shows once.
    const early = run([dial, { type: 'outgoing.ringing' }]);
    expect([early.ctx.state, early.effects]).toEqual(['CALL_PROCESS', [{ type: 'customerPopup', action: 'show' }]]);
    expect(run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.ringing' }]).effects).toEqual([]);
    expect(run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.ringing' }, { type: 'outgoing.accepted' }]).ctx.state).toBe('CALL_ACCEPTED');
    // Provisional answers never move a call backwards, nor an incoming call.
    expect(run([dial, { type: 'outgoing.ringing' }, { type: 'outgoing.progress' }]).ctx.state).toBe('CALL_PROCESS');
    expect(run([dial, { type: 'outgoing.accepted' }, { type: 'outgoing.ringing' }]).ctx.state).toBe('CALL_ACCEPTED');
    expect(run([ring, { type: 'outgoing.ringing' }]).ctx.state).toBe('CALL_INCOMING');
  });
  it('ended: failed and the session cleared', () => {
    const { ctx, effects } = run([dial, { type: 'outgoing.progress' }, { type: 'outgoing.accepted' }, { type: 'ended' }]);
    expect(ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'ended' });
    expect(effects).toEqual([{ type: 'clearSession' }]);
  });
  it('a busy callee (486): failed, remembered as busy for the badge', () => {
    expect(run([dial, { type: 'failed', cause: 'busy' }]).ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'busy' });
  });
  it('failed: failed, the session cleared and the customer popup hidden', () => {
    const { ctx, effects } = run([dial, { type: 'outgoing.progress' }, { type: 'failed' }]);
    expect(ctx).toMatchObject({ state: 'CALL_FAILED', endCause: 'failed' });
    expect(effects).toEqual([{ type: 'clearSession' }, { type: 'customerPopup', action: 'hide' }]);
  });
});

describe('second call (SPEC §4)', () => {
  const activeStates: CallState[] = ['CALL_INCOMING', 'CALL_OUT', 'CALL_ACCEPTED', 'CALL_PROCESS', 'CALL_CONFIRMED', 'CALL_CONNECTING'];
  it.each(activeStates)('a call arriving in %s is rejected 486 on provider 1 and the current call is untouched', (state) => {
    const from: PhoneContext = { state, registered: true, direction: 'outgoing', remoteNumber: '103' };
    const { context, effects } = transition(from, ring, P1);
    expect(context).toEqual(from);
    expect(effects).toEqual([{ type: 'rejectBusy', status: 486 }]);
  });
  it('no new outgoing call while one is active', () => {
    const from: PhoneContext = { state: 'CALL_ACCEPTED', registered: true, direction: 'incoming', remoteNumber: '103' };
    expect(transition(from, dial, P1)).toEqual({ context: from, effects: [] });
  });
  it.each(['CALL_NOT_CREATED', 'CALL_ENDED', 'CALL_FAILED'] as CallState[])('a call arriving in %s rings', (state) => {
    expect(transition({ state, registered: true }, ring, P1).context.state).toBe('CALL_INCOMING');
  });
});

describe('registration (SPEC §4)', () => {
  it('success keeps the phone ready', () => {
    expect(transition(initialContext, { type: 'registered' }, P1).context).toEqual({ state: 'CALL_NOT_CREATED', registered: true });
    expect(transition({ state: 'CALL_OFFLINE', registered: false }, { type: 'registered' }, P1).context.state).toBe('CALL_NOT_CREATED');
    expect(transition({ state: 'CALL_FAILED_REGISTER_TO_SERVER', registered: false }, { type: 'registered' }, P1).context.state).toBe('CALL_NOT_CREATED');
  });
  it('unregistered sets offline', () => {
    expect(transition({ state: 'CALL_NOT_CREATED', registered: true }, { type: 'unregistered' }, P1).context).toEqual({ state: 'CALL_OFFLINE', registered: false });
  });
  it('failure sets failed-register', () => {
    expect(transition(initialContext, { type: 'registrationFailed' }, P1).context.state).toBe('CALL_FAILED_REGISTER_TO_SERVER');
  });
  it('a call in progress is not cut off by a registration change', () => {
    const from: PhoneContext = { state: 'CALL_ACCEPTED', registered: true, direction: 'incoming' };
    expect(transition(from, { type: 'unregistered' }, P1).context).toEqual({ ...from, registered: false });
    expect(transition(from, { type: 'registrationFailed' }, P1).context).toEqual({ ...from, registered: false });
  });
});

describe('hold and blind transfer (not SPEC states)', () => {
  const answered = [ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }] as PhoneEvent[];
  it('hold keeps the SPEC state and no effect runs; it tracks who holds until both resume', () => {
    const held = run([...answered, { type: 'hold', originator: 'local' }], P2);
    expect([held.ctx.state, held.ctx.hold, held.effects]).toEqual(['CALL_CONFIRMED', { local: true, remote: false }, []]);
    const both = run([...answered, { type: 'hold', originator: 'local' }, { type: 'hold', originator: 'remote' }, { type: 'unhold', originator: 'local' }]);
    expect([both.ctx.state, both.ctx.hold]).toEqual(['CALL_ACCEPTED', { local: false, remote: true }]);
    expect(run([...answered, { type: 'hold', originator: 'remote' }, { type: 'unhold', originator: 'remote' }]).ctx.hold).toBeUndefined();
  });
  it('hold with no call does nothing; the end of a call forgets it', () => {
    expect(transition(initialContext, { type: 'hold', originator: 'local' }, P1)).toEqual({ context: initialContext, effects: [] });
    expect(run([...answered, { type: 'hold', originator: 'local' }, { type: 'ended' }]).ctx.hold).toBeUndefined();
  });
  it('the transferor: the call ends as handed over (ended/failed per direction, as SPEC §4 ends them)', () => {
    expect(run([...answered, { type: 'transferred' }]).ctx).toMatchObject({ state: 'CALL_ENDED', endCause: 'transferred' });
    const out = run([dial, { type: 'outgoing.accepted' }, { type: 'transferred' }]);
    expect([out.ctx.state, out.ctx.endCause, out.effects]).toEqual(['CALL_FAILED', 'transferred', [{ type: 'clearSession' }]]);
  });
  it('the transferee: the call goes on as a new outgoing call to the target, logged; then the usual outgoing states', () => {
    const referred = run([...answered, { type: 'hold', originator: 'remote' }, { type: 'referred', remoteNumber: '103' }]);
    expect(referred.ctx).toMatchObject({ state: 'CALL_CONNECTING', direction: 'outgoing', remoteNumber: '103', hold: undefined });
    expect(referred.effects).toEqual([{ type: 'logCall', phone: '103', direction: 'outgoing' }]);
    expect(run([...answered, { type: 'referred', remoteNumber: '103' }, { type: 'outgoing.progress' }, { type: 'outgoing.accepted' }]).ctx).toMatchObject({ state: 'CALL_ACCEPTED', remoteNumber: '103' });
    expect(transition(initialContext, { type: 'referred', remoteNumber: '103' }, P1).context).toEqual(initialContext);
  });
});

describe('totality', () => {
  const events: PhoneEvent[] = [ring, { type: 'incoming.accepted' }, { type: 'incoming.confirmed' }, dial, { type: 'outgoing.progress' }, { type: 'outgoing.ringing' },
    { type: 'outgoing.accepted' }, { type: 'outgoing.confirmed' }, { type: 'ended' }, { type: 'failed' }, { type: 'registered' },
    { type: 'unregistered' }, { type: 'registrationFailed' }, { type: 'hold', originator: 'local' }, { type: 'unhold', originator: 'remote' },
    { type: 'transferred' }, { type: 'referred', remoteNumber: '103' }, { type: 'declined' }];
  const every = (fn: (ctx: PhoneContext, e: PhoneEvent, opts: MachineOptions) => void) => {
    for (const provider of [1, 2, 3] as const)
      for (const state of CALL_STATES)
        for (const direction of ['incoming', 'outgoing', undefined] as const)
          for (const hold of [undefined, { local: true, remote: true }])
            for (const e of events) fn({ state, registered: true, direction, hold }, e, { provider, customerPopupAllowed: true });
  };
  /** Contexts a phone can reach from power-on through any sequence of the events. */
  function reachable(opts: MachineOptions): Set<CallState> {
    const seen = new Map<string, PhoneContext>([[JSON.stringify(initialContext), initialContext]]);
    const queue = [initialContext];
    while (queue.length) {
      const ctx = queue.shift()!;
      for (const e of events) {
        const next = transition(ctx, e, opts).context;
        const key = JSON.stringify(next);
        if (!seen.has(key)) (seen.set(key, next), queue.push(next));
      }
    }
    return new Set([...seen.values()].map((c) => c.state));
  }

  it('every state × event pair yields a known state, for every provider', () => {
    every((ctx, e, opts) => expect(CALL_STATES).toContain(transition(ctx, e, opts).context.state));
  });
  it('every SPEC §4 state is entered by some sequence of events (a missing transition leaves one out)', () => {
    const notYet: CallState[] = [];
    // CALL_CONFIRMED is provider 2's (see 'confirmed' above): the union over the providers counts.
    const entered = new Set([P1, P2, { provider: 3, customerPopupAllowed: true } as const].flatMap((opts) => [...reachable(opts)]));
    expect(CALL_STATES.filter((s) => !entered.has(s))).toEqual(notYet);
  });
  it('every event does something in some state, except the one SPEC §4 ignores', () => {
    const idle = events.filter((e) => {
      let acts = false;
      every((ctx, ev, opts) => {
        if (ev !== e) return;
        const t = transition(ctx, ev, opts);
        acts ||= t.effects.length > 0 || JSON.stringify(t.context) !== JSON.stringify(ctx);
      });
      return !acts;
    });
    // SPEC §4 names no outgoing "confirmed" transition (see 'outgoing.confirmed' in the machine).
    expect(idle.map((e) => e.type)).toEqual(['outgoing.confirmed']);
  });
  it('a call in progress can always end: ended and failed leave every active state, in both directions', () => {
    for (const state of CALL_STATES.filter(isActiveCallState))
      for (const direction of ['incoming', 'outgoing'] as const)
        for (const type of ['ended', 'failed'] as const) {
          const next = transition({ state, registered: true, direction }, { type }, P1).context.state;
          expect({ state, direction, type, ended: !isActiveCallState(next) }).toEqual({ state, direction, type, ended: true });
        }
  });
  it('registration events set the idle state and leave an active call alone', () => {
    const cases = [['registered', 'CALL_NOT_CREATED'], ['unregistered', 'CALL_OFFLINE'], ['registrationFailed', 'CALL_FAILED_REGISTER_TO_SERVER']] as const;
    for (const [type, idle] of cases)
      for (const state of CALL_STATES)
        expect(transition({ state, registered: true, direction: 'incoming' }, { type }, P1).context.state).toBe(isActiveCallState(state) ? state : idle);
  });
  it('ended or failed with no call does nothing', () => {
    expect(transition(initialContext, { type: 'ended' }, P1)).toEqual({ context: initialContext, effects: [] });
    expect(transition(initialContext, { type: 'failed' }, P1)).toEqual({ context: initialContext, effects: [] });
  });
});
