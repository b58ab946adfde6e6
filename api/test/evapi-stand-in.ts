import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const netstring = (o: unknown) => {
  const p = JSON.stringify(o);
  return `${Buffer.byteLength(p)}:${p},`;
};

/** Kamailio's evapi end as the API sees it (a test stand-in; the real one runs in the fault suites). */
export interface EvapiStandIn {
  server: Server;
  port: number;
  /** Sends an event to the connected API. */
  send(event: unknown): void;
  /** Every message the API sent after its hello ({ack}, {sync}, …). */
  received: Record<string, unknown>[];
  close(): void;
}

/**
 * Answers the API's hello with Kamailio's welcome (ADR 0019) and its replay (ADR 0046; none unless given), then
 * records what the API sends; `answer` may reply to a message (e.g. {"sync":"registrations"} with a
 * location table).
 */
export async function evapiStandIn(
  secret: string,
  answer: (msg: Record<string, unknown>) => unknown = () => undefined,
  /** What Kamailio kept for an API (its outbox): sent after the welcome, the round's end marker `markerAfterMs` later. */
  replay: { events: { id: string }[]; markerAfterMs: number } = { events: [], markerAfterMs: 0 },
): Promise<EvapiStandIn> {
  const received: Record<string, unknown>[] = [];
  let socket: Socket | null = null;
  const server = createServer((s) => {
    s.on('error', () => undefined);
    let buffered = '';
    s.on('data', (d) => {
      buffered += d.toString();
      for (let m = /^(\d+):/.exec(buffered); m && buffered.length >= m[0].length + Number(m[1]) + 1; m = /^(\d+):/.exec(buffered)) {
        const msg = JSON.parse(buffered.slice(m[0].length, m[0].length + Number(m[1]))) as Record<string, unknown>;
        buffered = buffered.slice(m[0].length + Number(m[1]) + 1);
        if (typeof msg.hello === 'string') {
          s.write(netstring({ event: 'welcome', nonce: msg.hello, proof: sha256(`kamailio|${msg.hello}|${secret}`) }));
          for (const e of replay.events) s.write(netstring(e));
          const marker = netstring({ event: 'replayed', upto: replay.events.at(-1)?.id ?? '0', more: 0 });
          if (replay.markerAfterMs) setTimeout(() => !s.destroyed && s.write(marker), replay.markerAfterMs);
          else s.write(marker);
          socket = s;
          continue;
        }
        received.push(msg);
        const reply = answer(msg);
        if (reply !== undefined) s.write(netstring(reply));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    port: (server.address() as { port: number }).port,
    send: (e) => socket?.write(netstring(e)),
    received,
    close: () => {
      socket?.destroy();
      server.close();
    },
  };
}

/** Kamailio's answer to {"sync":"registrations"} (route[REGISTRATIONS_SYNC]: ul.dump, JSON-RPC id 2): each AoR with one live contact. */
export const locationTable = (aors: string[], expires = 540) => ({
  jsonrpc: '2.0',
  id: 2,
  result: { Domains: [{ Domain: { Domain: 'location', AoRs: aors.map((aor) => ({ Info: { AoR: aor, Contacts: [{ Contact: { Expires: expires, 'User-Agent': 'sipp' } }] } })) } }] },
});
