/** Ports of the e2e stack: apart from `npm start`'s so both can run at once. */
export const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
export const API_PORT = Number(process.env.E2E_API_PORT ?? 4100);
export const CONTROL_PORT = Number(process.env.E2E_CONTROL_PORT ?? 4199);
export const API_URL = `http://127.0.0.1:${API_PORT}`;
/** The sipp carrier that answers calls out through the e2e stack's trunk "e2e-trunk" (SIP_TRUNKS). */
export const TRUNK_PORT = API_PORT + 92;
