import { memoryLiveStore, withLocalCopy, type LiveEntry, type LiveStore } from './live-state';

const call: LiveEntry = {
  call_id: 'c1', direction: 'inbound', caller: '0901234567', callee: '102', did: null, route: [], state: 'ringing', queue_id: null, ringing: ['102'],
  extension: null, caller_extension: null, started_at: 1, queued_at: null, answered_at: null, involved: ['102'], queue_agents: [], expires_at: Date.now() + 60_000,
};

describe('withLocalCopy: the shared store beside this process\'s copy', () => {
  it('sends the shared store its write before the caller publishes the event that announces it', async () => {
    // The order commands leave on the shared connection: the live feed publishes right after it
    // asks for the write, without waiting, and Redis must see the write first (the snapshot's position).
    const sent: string[] = [];
    const memory = memoryLiveStore();
    const shared: LiveStore = {
      ...memory,
      putCall: (t, c) => (sent.push(`put ${c.call_id}`), memory.putCall(t, c)),
      removeCall: (t, id) => (sent.push(`remove ${id}`), memory.removeCall(t, id)),
    };
    const store = withLocalCopy(shared, () => false);
    const put = store.putCall(1, call);
    sent.push('publish ringing');
    const removed = store.removeCall(1, 'c1');
    sent.push('publish ended');
    await Promise.all([put, removed]);
    expect(sent).toEqual(['put c1', 'publish ringing', 'remove c1', 'publish ended']);
    expect(await store.calls(1)).toEqual([]);
  });
});
