// The walls of the bench: /monitor's WebSocket opened as the tenant's administrator, each measuring
// event → socket (the event's server time to its arrival, one machine's clock), and the wall's
// snapshot polled for the number of live calls. The call bench keeps them open while it calls and
// the wall bench measures them; both import them from here. Node 20 needs --experimental-websocket.

interface Ws {
  onmessage: ((m: { data: unknown }) => void) | null;
  onopen: (() => void) | null;
  onerror: ((e: unknown) => void) | null;
  close(): void;
}
const WebSocketCtor = (globalThis as unknown as { WebSocket?: new (url: string, protocols: string[]) => Ws }).WebSocket;

export interface Walls {
  /** Latencies (ms) heard since the last reset, and live calls seen at most by the snapshot poll. */
  take(): { latencies: number[]; maxLiveCalls: number };
  close(): void;
}

export async function openWalls(apiUrl: string, token: string, count: number): Promise<Walls | null> {
  if (!WebSocketCtor) return null;
  let latencies: number[] = [];
  let maxLiveCalls = 0;
  const sockets = await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<Ws>((resolve, reject) => {
        const ws = new WebSocketCtor(`${apiUrl.replace(/^http/, 'ws')}/t/demo/events`, ['tongdai.v1', token]);
        ws.onopen = () => resolve(ws);
        ws.onerror = reject;
        ws.onmessage = (m) => latencies.push(Date.now() - (JSON.parse(String(m.data)) as { at: number }).at);
      }),
    ),
  );
  const poll = setInterval(() => {
    fetch(`${apiUrl}/t/demo/monitor/snapshot`, { headers: { authorization: `Bearer ${token}` } })
      .then((r) => r.json() as Promise<{ data: { calls: unknown[] } }>)
      .then((s) => void (maxLiveCalls = Math.max(maxLiveCalls, s.data.calls.length)), () => undefined);
  }, 500);
  return {
    take() {
      const out = { latencies, maxLiveCalls };
      latencies = [];
      maxLiveCalls = 0;
      return out;
    },
    close() {
      clearInterval(poll);
      for (const ws of sockets) ws.close();
    },
  };
}
