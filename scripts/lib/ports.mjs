// Free loopback ports for servers a test or the bench starts (the caller binds right after, and a
// test may bind the same port again later: a sipp phone per test on one registered port).
//
// Picked at random below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range,
// 32768-60999 on Debian), never from it: a port the OS handed out and we closed goes back to that
// pool, and any socket bound to port 0 meanwhile (Chromium's and the media worker's WebRTC, sipp
// -p 0, DNS) could take it before our process binds it again — calls.integration's phone 102 once
// found its port taken for four tests in a row (sipp exit 254, bind error). Above every fixed port
// of the product and its tests (3000-4999, 5060, sipp's 6000+/8888), under rtpengine's blocks
// (30000 and up, scripts/lib/stack.mjs) and baresip's RTP 20000-20099.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

// npm test gives each of its lanes a third of the range (TONGDAI_PORT_RANGE=low-high, scripts/test.mjs):
// a port one lane picked and closed, to bind again a moment later, is then never another lane's pick
// (calls.integration's phone 101 found its port taken once, sipp exit 254, with the lanes side by side).
// A Playwright worker (TEST_PARALLEL_INDEX set) takes its own share of that (E2E_WORKERS shares, 2 by
// default): the e2e workers pick side by side, and a port one picked for a server it started seconds
// later (the two-instance pair's second API, after the first and Kamailio) was taken by the other's
// meanwhile (EADDRINUSE, ci2 of the thirty-sixth session).
const [LOW, HIGH] = (() => {
  const m = /^(\d+)-(\d+)$/.exec(process.env.TONGDAI_PORT_RANGE ?? '');
  const [low, high] = m && Number(m[1]) >= 20_100 && Number(m[2]) <= 30_000 && Number(m[1]) < Number(m[2]) ? [Number(m[1]), Number(m[2])] : [20_100, 30_000];
  // A Jest worker too (JEST_WORKER_ID, from 1; the API's main part runs two, api/jest.config.js): each
  // worker's suites start whole stacks, and a port one picked must not be the other's pick a moment later.
  const playwright = process.env.TEST_PARALLEL_INDEX;
  const jest = process.env.JEST_WORKER_ID;
  const worker = playwright ?? (jest !== undefined && /^\d+$/.test(jest) ? String(Math.max(0, Number(jest) - 1)) : undefined);
  if (worker === undefined || !/^\d+$/.test(worker)) return [low, high];
  const shares = Math.max(1, Number((playwright === undefined ? 2 : process.env.E2E_WORKERS) ?? 2) || 1);
  const size = Math.floor((high - low) / shares);
  const share = Number(worker) % shares;
  return [low + share * size, low + (share + 1) * size];
})();
const random = () => LOW + Math.floor(Math.random() * (HIGH - LOW));

const tryTcp = (port) => new Promise((resolve) => {
  const s = createServer();
  s.once('error', () => resolve(null));
  s.listen(port, '127.0.0.1', () => {
    const got = s.address().port;
    s.close(() => resolve(got));
  });
});

const tryUdp = (port) => new Promise((resolve) => {
  const s = createSocket('udp4');
  s.once('error', () => { s.close(); resolve(null); });
  s.bind(port, '127.0.0.1', () => {
    const got = s.address().port;
    s.close(() => resolve(got));
  });
});

/**
 * Ports this process handed out already: each pick binds and closes its port, so two picks of one
 * suite could draw the same free port (ghosts.integration draws ten: its 'unreachable' carrier's sipp
 * found its port taken, exit 254, ci3 of the twenty-fourth session). Never handed out twice.
 */
const handedOut = new Set();

/** A port `probe` could bind, from LOW-HIGH, not handed out before; after 50 tries, whatever the OS gives. */
async function pick(probe) {
  for (let i = 0; i < 50; i++) {
    const candidate = random();
    if (handedOut.has(candidate)) continue;
    const port = await probe(candidate);
    if (port) {
      handedOut.add(port);
      return port;
    }
  }
  return probe(0);
}

export const freeTcpPort = () => pick(tryTcp);

export const freeUdpPort = () => pick(tryUdp);

/**
 * `count` ports side by side, each free and none handed out before (`even`: the first even); all are
 * handed out. A block checked only for being free could hold a port this process picked a moment ago
 * and had not bound yet: the e2e pair's web block took its second API's port (EADDRINUSE, ci5 of the
 * thirty-seventh session).
 */
async function pickBlock(probe, count, even = false) {
  for (let i = 0; i < 50; i++) {
    const base = even ? random() & ~1 : random();
    const block = Array.from({ length: count }, (_, k) => base + k);
    if (block.some((p) => handedOut.has(p) || p >= HIGH)) continue;
    let free = true;
    for (const p of block) if (!(await probe(p))) { free = false; break; }
    if (!free) continue;
    for (const p of block) handedOut.add(p);
    return base;
  }
  throw new Error(`no ${count} free ports side by side in ${LOW}-${HIGH} after 50 tries`);
}

/** `count` consecutive free TCP ports (the e2e pair's host and remotes: runtimeConfig's webPort + offset). */
export const freeTcpBlock = (count) => pickBlock(tryTcp, count);

/**
 * sipp's -mp: it binds that port for audio and the port two above for video (sipp 3.6, seen with
 * ss), and a carrier's or phone's own port picked earlier in the suite could be that second one
 * (calls.integration's recorded call: the caller's sipp exit 254, a bind error, ci of stop 53). An
 * even port whose four ports from it are free and none handed out.
 */
export const freeMediaPort = () => pickBlock(tryUdp, 4, true);
