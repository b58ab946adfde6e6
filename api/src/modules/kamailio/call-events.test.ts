import type { RoutingPlan } from '../routing';
import { CallTracker, type CallEvent } from '../cdr/call-tracker';
import type { CdrRow } from '../cdr/cdr';
import { toKamailioPlan } from './kamailio-plan';
import { applyKamailioEvent, type HeldRegistration } from './call-events';

const plan: RoutingPlan = {
  direction: 'inbound', from: '0901234567', to: '02873000001', did: '02873000001', route: [], interactive: false,
  steps: [{ kind: 'ring', mode: 'parallel', targets: [{ extension: '101', timeout: 20 }], timeout: 20, source: { type: 'direct', id: '101', name: '101' } }],
};

/** Kamailio's dialogs snapshot (route[DIALOGS_SYNC]: dlg.briefing "c" as JSON-RPC) reconciles the calls in progress (issue 30). */
describe("Kamailio's dialogs snapshot", () => {
  function setup() {
    const rows: CdrRow[] = [];
    const ended: CallEvent[] = [];
    const off: string[] = [];
    const tracker = new CallTracker((r) => rows.push(r), 1000);
    tracker.events.on('call', (e: CallEvent) => e.type === 'ended' && ended.push(e));
    const start = (callId: string, ageMs: number) =>
      tracker.start({ callId, tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan, kamailio: toKamailioPlan(plan, 'd', {}), startedAt: new Date(Date.now() - ageMs) });
    return { rows, ended, off, tracker, start, channels: { on: () => undefined, off: (id: string) => void off.push(id) } };
  }

  it('ends the calls Kamailio no longer has (their record FAILED, their channel given back), keeps those it has and the young ones', () => {
    const { rows, ended, off, tracker, start, channels } = setup();
    start('up', 30_000);
    start('ghost', 30_000);
    start('young', 100);
    start('answered-ghost', 60_000);
    tracker.answered('answered-ghost', '101', 0, new Date(Date.now() - 50_000));
    applyKamailioEvent(tracker, { jsonrpc: '2.0', result: [{ 'call-id': 'up' }, { 'call-id': 'other' }], id: 1 }, channels);
    expect(rows.map((r) => [r.call_id, r.disposition]).sort()).toEqual([['answered-ghost', 'ANSWERED'], ['ghost', 'FAILED']]);
    expect(ended.map((e) => e.callId).sort()).toEqual(['answered-ghost', 'ghost']);
    expect(off.sort()).toEqual(['answered-ghost', 'ghost']);
    expect(tracker.get('up')).toBeDefined();
    expect(tracker.get('young')).toBeDefined();
  });

  it('no dialog at all ends every call old enough; an RPC error or a malformed message ends nothing', () => {
    const { tracker, start, channels } = setup();
    start('a', 30_000);
    applyKamailioEvent(tracker, { jsonrpc: '2.0', error: { code: 500, message: 'x' }, id: 1 }, channels);
    applyKamailioEvent(tracker, { jsonrpc: '1.0', result: [] }, channels);
    expect(tracker.activeCount()).toBe(1);
    applyKamailioEvent(tracker, { jsonrpc: '2.0', id: 1 }, channels);
    expect(tracker.activeCount()).toBe(0);
  });

  // Issue 41: a restarted API takes its predecessor's calls over from the journal (restore). They are
  // old by their start, but Kamailio's first snapshot after the restart may predate their plans' ends
  // reaching it, so their grace counts from the restore; past it, the snapshot decides as for any call.
  it("calls taken over after a restart: counted at once, kept through the grace even if a snapshot lacks them, then judged by Kamailio's dialogs", () => {
    const { rows, ended, off, tracker, channels } = setup();
    const live: CallEvent[] = [];
    tracker.events.on('call', (e: CallEvent) => live.push(e));
    const old = (callId: string, answeredAgoMs: number | null, callerExtension: string | null = null) => ({
      callId, tenantId: 1, caller: plan.from, callee: plan.to, callerExtension, plan, kamailio: toKamailioPlan(plan, 'd', {}),
      startedAt: new Date(Date.now() - 120_000), answeredAt: answeredAgoMs === null ? null : new Date(Date.now() - answeredAgoMs),
      answeredBy: answeredAgoMs === null ? null : '101', answeredStep: answeredAgoMs === null ? null : 0,
    });
    // Restored 1.5 s ago: the snapshots below are judged at a time of their choosing, then now.
    const restoredAt = Date.now() - 1_500;
    tracker.restore([old('talking', 100_000), old('ringing', null, '102'), old('gone', 90_000)], new Date(restoredAt));
    // In the live state and the busy set at once: no undercount right after the restart.
    expect(tracker.activeCount()).toBe(3);
    expect(tracker.busy(1)).toEqual(new Set(['101', '102']));
    expect(live.filter((e) => e.type === 'answered').map((e) => e.callId).sort()).toEqual(['gone', 'talking']);

    // A snapshot with none of them, within the grace (1 s here) from the restore: all three stay.
    expect(tracker.reconcile(new Set(), restoredAt + 500)).toEqual([]);
    expect(tracker.activeCount()).toBe(3);

    // Past the grace: Kamailio still has two; the third ended while no API heard it.
    applyKamailioEvent(tracker, { jsonrpc: '2.0', result: [{ 'call-id': 'talking' }, { 'call-id': 'ringing' }], id: 1 }, channels);
    expect(rows.map((r) => [r.call_id, r.disposition, r.extension])).toEqual([['gone', 'ANSWERED', '101']]);
    expect(ended.map((e) => e.callId)).toEqual(['gone']);
    expect(off).toEqual(['gone']);
    expect(tracker.activeCount()).toBe(2);

    // The kept calls' own ends, when Kamailio's events bring them, bill from the answer before the restart.
    tracker.ended('talking', new Date());
    expect(rows[1]).toMatchObject({ call_id: 'talking', disposition: 'ANSWERED', extension: '101' });
    expect(rows[1].billsec).toBeGreaterThanOrEqual(99);
    expect(rows[1].billsec).toBeLessThanOrEqual(101);
    tracker.failed('ringing', 487, 0);
    expect(rows[2]).toMatchObject({ call_id: 'ringing' });
    expect(rows[2].disposition).not.toBe('ANSWERED');
    expect(tracker.busy(1).size).toBe(0);
    // Taken over twice (a replayed start of a call already followed) counts nothing again.
    tracker.restore([old('again', null)]);
    tracker.restore([old('again', null)]);
    expect(tracker.activeCount()).toBe(1);
  });
});

/** A call whose last step needed a media server none could take (issue 41): a failure of the system, said so. */
describe("Kamailio's location table (ul.dump, when the API connects)", () => {
  // ul.dump's JSON-RPC answer as Kamailio 5.6 writes it (a contact's Expires: seconds left, or a word).
  const contact = (expires: number | string, ua = 'JsSIP 3.10.1') => ({ Contact: { Address: 'sip:x@y.invalid;transport=ws', Expires: expires, Q: -1, 'User-Agent': ua, Ruid: 'uloc-1' } });
  const dump = (aors: { AoR: string; Contacts?: unknown[] }[]) => ({
    jsonrpc: '2.0',
    result: { Domains: [{ Domain: { Domain: 'location', Size: 1024, AoRs: aors.map((a) => ({ Info: { HashID: 1, ...a } })), Stats: { Records: aors.length, 'Max-Slots': 1 } } }] },
    id: 2,
  });

  it('hands over each AoR with its latest live contact; expired or deleted contacts count as none', async () => {
    const got: HeldRegistration[][] = [];
    const tracker = new CallTracker(() => undefined, 1000);
    await applyKamailioEvent(tracker, dump([
      { AoR: '101@Demo.tongdai.local', Contacts: [contact('deleted'), contact(120, 'Yealink'), contact(580)] },
      { AoR: '102@demo.tongdai.local', Contacts: [contact('expired'), contact('deleted')] },
      { AoR: '201@abc.tongdai.local', Contacts: [contact(30)] },
      { AoR: 'no-domain', Contacts: [contact(30)] },
    ]), undefined, undefined, undefined, async (held) => void got.push(held));
    expect(got).toEqual([[
      { user: '101', domain: 'demo.tongdai.local', expires: 580, ua: 'JsSIP 3.10.1' },
      { user: '201', domain: 'abc.tongdai.local', expires: 30, ua: 'JsSIP 3.10.1' },
    ]]);
  });

  it('is never taken for a list of dialogs: no call is ended by it', () => {
    const tracker = new CallTracker(() => undefined, 1000);
    tracker.start({ callId: 'up', tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan, kamailio: toKamailioPlan(plan, 'd', {}), startedAt: new Date(Date.now() - 30_000) });
    applyKamailioEvent(tracker, dump([]));
    applyKamailioEvent(tracker, { jsonrpc: '2.0', result: { Domains: [] }, id: 2 });
    expect(tracker.activeCount()).toBe(1);
  });
});

describe('a call that failed for want of a media server', () => {
  const media: RoutingPlan = { ...plan, steps: [{ kind: 'ivr', ivrId: 1, source: { type: 'ivr', id: '1', name: 'IVR' } } as unknown as RoutingPlan['steps'][number]] };
  const setup = () => {
    const rows: CdrRow[] = [];
    const tracker = new CallTracker((r) => rows.push(r), 1000);
    tracker.start({ callId: 'c', tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan: media, kamailio: toKamailioPlan(media, 'd', {}), startedAt: new Date() });
    return { rows, tracker };
  };

  it("is FAILED with the reason, not 'NO ANSWER', whatever code the caller got (480 none up, 408 the one tried died)", () => {
    for (const code of ['480', '408']) {
      const { rows, tracker } = setup();
      applyKamailioEvent(tracker, { event: 'failed', call_id: 'c', code, step: '1', cause: 'media' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ disposition: 'FAILED', sip_code: Number(code) });
      expect(rows[0].reason).toMatch(/Không có máy chủ phát âm thanh/);
    }
  });

  it('without the cause a 480 stays a call nobody answered', () => {
    const { rows, tracker } = setup();
    applyKamailioEvent(tracker, { event: 'failed', call_id: 'c', code: '480', step: '1' });
    expect(rows[0]).toMatchObject({ disposition: 'NO ANSWER', reason: '' });
  });
});

/** Kamailio's dispatcher took a media worker out (event_route[dispatcher:dst-down], issue 41). */
describe('a media worker that died mid-call', () => {
  it('ends the calls it held and the legs it placed at the fault, FAILED with the reason, and asks Kamailio to end their dialogs; others go on', () => {
    const rows: CdrRow[] = [];
    const tracker = new CallTracker((r) => rows.push(r), 1000);
    const k = toKamailioPlan(plan, 'd', {});
    const t0 = Date.now() - 60_000;
    const call = (callId: string, more: object = {}) =>
      tracker.start({ callId, tenantId: 1, caller: plan.from, callee: plan.to, callerExtension: null, plan, kamailio: k, startedAt: new Date(t0), ...more });
    call('held');
    tracker.servedBy('held', '127.0.0.1:5071');
    tracker.answered('held', null, 0, new Date(t0 + 1000));
    call('leg', { parentCallId: 'held' });
    tracker.answered('leg', '102', 0, new Date(t0 + 5000));
    call('elsewhere');
    tracker.servedBy('elsewhere', '127.0.0.1:5072');
    const ended: string[][] = [];
    const fault = t0 + 20_000;
    applyKamailioEvent(tracker, { event: 'media_down', call_id: '-', dst: 'sip:127.0.0.1:5071;transport=udp', at: String(fault / 1000) }, undefined, undefined, (ids) => ended.push(ids));
    expect(ended).toEqual([['leg', 'held']]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ call_id: 'held', disposition: 'FAILED', extension: '102', billsec: 15 });
    expect(rows[0].ended_at.getTime()).toBe(fault);
    expect(rows[0].reason).toMatch(/ngừng hoạt động giữa cuộc gọi/);
    expect(tracker.busy(1).has('102')).toBe(false);
    expect(tracker.get('elsewhere')).toBeDefined();
    // The BYE's own end, when Kamailio reports it, changes nothing.
    applyKamailioEvent(tracker, { event: 'end', call_id: 'held' });
    expect(rows).toHaveLength(1);
  });
});
