/**
 * Ports of the e2e stacks: apart from `npm start`'s so both can run at once. Each Playwright worker
 * has its own stack (global-setup starts one per worker), STACK_STRIDE ports above the previous
 * one: its API, web servers, Kamailio, rtpengine, media worker and sipp carriers never meet the
 * other worker's. Playwright sets TEST_PARALLEL_INDEX in each worker (0 … workers - 1, kept by a
 * replacement worker); the main process (global setup) passes the index itself.
 */
export const STACK_STRIDE = 100;
export const WORKER_SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** Every port of the stack of worker `slot`. */
export function stackPorts(slot: number) {
  const offset = slot * STACK_STRIDE;
  const apiPort = Number(process.env.E2E_API_PORT ?? 4100) + offset;
  return {
    webPort: Number(process.env.E2E_WEB_PORT ?? 3100) + offset,
    apiPort,
    controlPort: Number(process.env.E2E_CONTROL_PORT ?? 4199) + offset,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    /** The sipp carrier that answers calls out: the demo tenant's switchboard "e2e-trunk" (global-setup). */
    trunkPort: apiPort + 92,
    /** Where sipp carriers call in from: the demo tenant's switchboard "e2e-nha-mang" (no open relay, ADR 0036). */
    carrierPort: apiPort + 93,
    /** A second carrier address (switchboard "e2e-nha-mang-2"), for two carrier calls at once (one sipp per port). */
    carrierPort2: apiPort + 96,
  };
}

const mine = stackPorts(WORKER_SLOT);
export const WEB_PORT = mine.webPort;
export const API_PORT = mine.apiPort;
export const CONTROL_PORT = mine.controlPort;
export const API_URL = mine.apiUrl;
export const TRUNK_PORT = mine.trunkPort;
export const CARRIER_PORT = mine.carrierPort;
export const CARRIER_PORT_2 = mine.carrierPort2;
