import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MonitorSnapshot, PbxCallEvent } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from '../global';
import '../realtime';

// The snapshot endpoint (the network is this test's edge): each request answers the next snapshot
// queued here, or waits for a promise queued here (a request still in flight).
const served: (MonitorSnapshot | Promise<MonitorSnapshot>)[] = [];
jest.mock('../http', () => ({
  tenantApi: () => ({ get: () => ({ json: async () => ({ data: await served.shift() }) }) }),
}));
import { LIVE_BATCH_MS, LIVE_MONITOR_KEY, useLiveMonitor, type LiveMonitor } from './live';

/** The realtime module's channel: events pushed here reach pbxEvents$ as if the socket had brought them. */
const channel = getOrCreateGlobalSingleton<{ subject: { next(e: PbxCallEvent): void }; opens: { value: number; next(n: number): void } }>('pbxEvents', () => { throw new Error('realtime not loaded'); });

const SNAPSHOT: LiveMonitor = {
  at: 0, offset: 0, scope: 'tenant', agents: [], queues: [], calls: [], campaigns: [],
  today: {} as MonitorSnapshot['today'],
};
const ringing = (i: number): PbxCallEvent => ({ kind: 'tongdai.pbx-call', version: 1, callId: `c${i}`, at: i, type: 'ringing', caller: `09090${String(i).padStart(5, '0')}`, callee: '101', extensions: ['101'] });

/** The hook over a snapshot already held (no request), counting the states the wall would render. */
function mount(held: LiveMonitor = SNAPSHOT) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryDefaults(LIVE_MONITOR_KEY, { staleTime: Infinity });
  qc.setQueryData(LIVE_MONITOR_KEY, held);
  const states: number[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  const hook = renderHook(() => {
    const q = useLiveMonitor();
    states.push(q.data?.calls.length ?? -1);
    return q;
  }, { wrapper });
  return { hook, states };
}

describe('useLiveMonitor', () => {
  it('applies events arriving close together as one state, and a lone event at once', async () => {
    // On the test's own clock: with real timers a CPU-starved runner (load 12 on 2 cores, the Jest
    // packages beside the API's) ran the test's 20 ms wait in the same turn as the hook's flush,
    // before React Query's notify task, and saw no call yet.
    jest.useFakeTimers();
    try {
      await batches();
    } finally {
      jest.useRealTimers();
    }
  });

  async function batches() {
    const wait = (ms: number) => act(() => { jest.advanceTimersByTime(ms); });
    const { hook, states } = mount();
    // A lone event after a quiet spell: shown on the next task.
    act(() => channel.subject.next(ringing(0)));
    await wait(1);
    expect(hook.result.current.data?.calls).toHaveLength(1);
    const before = states.length;
    // Ten events 15 ms apart, each in a task of its own as the socket delivers them (150 ms).
    for (let i = 1; i <= 10; i++) {
      act(() => channel.subject.next(ringing(i)));
      await wait(15);
    }
    await wait(LIVE_BATCH_MS + 50);
    expect(hook.result.current.data?.calls).toHaveLength(11);
    // At most two renders for them (what was due when the window opened, then the rest), not ten.
    const shown = states.slice(before).filter((n, i, all) => n !== all[i - 1]);
    expect(shown.length).toBeLessThanOrEqual(2);
    expect(shown.at(-1)).toBe(11);
    hook.unmount();
  }

  it('takes a new snapshot when the socket opens again: what happened while it was closed shows, stale calls go', async () => {
    const { hook } = mount();
    act(() => channel.subject.next(ringing(1)));
    await waitFor(() => expect(hook.result.current.data?.calls.map((c) => c.call_id)).toEqual(['c1']));
    // While the socket was down c1 ended and c2 began; the events are lost, the server's snapshot has it.
    const c2 = { ...hook.result.current.data!.calls[0], call_id: 'c2' };
    served.push({ ...SNAPSHOT, at: Date.now(), calls: [c2] });
    act(() => channel.opens.next(channel.opens.value + 1));
    await waitFor(() => expect(hook.result.current.data?.calls.map((c) => c.call_id)).toEqual(['c2']));
    expect(served).toHaveLength(0);
    hook.unmount();
  });

  describe('a snapshot request in flight while events arrive', () => {
    // 102 is ringing (call c1) on the wall; the server's channel has numbered two events so far.
    const agent102 = { extension: '102', user_id: 2, full_name: 'Trần Thị Bình', department_id: null, team_id: null, registered: true, status_activity: 1, call_id: 'c1', handled_today: 0 };
    const call1 = { call_id: 'c1', direction: 'inbound' as const, caller: '0909000001', callee: '102', did: null, route: [], state: 'ringing' as const, queue_id: null, ringing: ['102'], extension: null, caller_extension: null, started_at: 1, queued_at: null, answered_at: null };
    const ringing102: LiveMonitor = { ...SNAPSHOT, seq: 2, agents: [agent102], calls: [call1] } as LiveMonitor;
    const ended = (callId: string, seq?: number) => ({ kind: 'tongdai.pbx-call', version: 1, callId, at: 5, type: 'ended', disposition: 'NO ANSWER', extension: null, ...(seq !== undefined && { seq }) }) as PbxCallEvent;

    /** The hook over `held`, then a new snapshot asked for (the socket reopened) whose answer waits for `answer`. */
    async function inFlight(held: LiveMonitor) {
      let answer!: (s: MonitorSnapshot) => void;
      served.push(new Promise<MonitorSnapshot>((resolve) => (answer = resolve)));
      const mounted = mount(held);
      act(() => channel.opens.next(channel.opens.value + 1));
      // The request has gone out once the hook took the queued answer.
      await waitFor(() => expect(served).toHaveLength(0));
      return { ...mounted, answer };
    }

    it("keeps an event that arrives while the request is in flight: the answer, computed before it, does not undo it", async () => {
      const { hook, answer } = await inFlight(ringing102);
      // c1 ends (the channel's third event) while the server's answer is on its way.
      act(() => channel.subject.next(ended('c1', 3)));
      await waitFor(() => expect(hook.result.current.data?.calls).toEqual([]));
      // The server read its state before c1 ended (position 2): c1 still rings 102 there.
      const at = Date.now() + 1;
      await act(async () => answer({ ...ringing102, at }));
      await waitFor(() => expect(hook.result.current.data?.at).toBe(at));
      expect(hook.result.current.data?.calls).toEqual([]);
      expect(hook.result.current.data?.agents.find((a) => a.extension === '102')?.call_id).toBeNull();
      hook.unmount();
    });

    it('does not apply again an event the answer already includes (a call it knows has ended does not come back)', async () => {
      const { hook, answer } = await inFlight({ ...ringing102, calls: [], agents: [{ ...agent102, call_id: null }] });
      // c2 rings (event 3) during the request; the server answers as of event 4, when c2 had already ended.
      act(() => channel.subject.next({ ...ringing(2), seq: 3 } as PbxCallEvent));
      await act(async () => answer({ ...ringing102, at: Date.now(), seq: 4, calls: [], agents: [{ ...agent102, call_id: null }] } as MonitorSnapshot));
      await waitFor(() => expect(hook.result.current.data?.seq).toBe(4));
      await act(async () => { await new Promise((r) => setTimeout(r, LIVE_BATCH_MS + 50)); });
      expect(hook.result.current.data?.calls).toEqual([]);
      hook.unmount();
    });

    it('replays events without a position (the channel could not number them) onto the answer', async () => {
      const { hook, answer } = await inFlight(ringing102);
      act(() => channel.subject.next(ended('c1')));
      await act(async () => answer({ ...ringing102, at: Date.now() }));
      await waitFor(() => expect(served).toHaveLength(0));
      await act(async () => { await new Promise((r) => setTimeout(r, LIVE_BATCH_MS + 50)); });
      expect(hook.result.current.data?.calls).toEqual([]);
      expect(hook.result.current.data?.agents[0].call_id).toBeNull();
      hook.unmount();
    });
  });
});
