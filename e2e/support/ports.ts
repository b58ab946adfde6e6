/** Ports of the e2e stack: apart from `npm start`'s so both can run at once. */
export const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
export const API_PORT = Number(process.env.E2E_API_PORT ?? 4100);
export const CONTROL_PORT = Number(process.env.E2E_CONTROL_PORT ?? 4199);
export const API_URL = `http://127.0.0.1:${API_PORT}`;
/** The sipp carrier that answers calls out: the demo tenant's switchboard "e2e-trunk" (global-setup). */
export const TRUNK_PORT = API_PORT + 92;
/** Where sipp carriers call in from: the demo tenant's switchboard "e2e-nha-mang" (no open relay, ADR 0036). */
export const CARRIER_PORT = API_PORT + 93;
/** A second carrier address (switchboard "e2e-nha-mang-2"), for two carrier calls at once (one sipp per port). */
export const CARRIER_PORT_2 = API_PORT + 96;
